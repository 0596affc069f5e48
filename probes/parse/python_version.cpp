// PEP 440 versions and specifiers; PEP 503 names. Mirrors pypa/packaging's
// rules (version.py `_cmpkey`, specifiers.py `Specifier._compare_*`).
#include "parse/python_version.hpp"

#include <algorithm>
#include <cctype>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  std::size_t pos() const { return i_; }
  void seek(std::size_t p) { i_ = p; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  bool eat_sep() { return eat('.') || eat('-') || eat('_'); }
  bool eat_word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  // Digits into `out`; false when there are none or they overflow.
  bool number(std::int64_t& out) {
    std::size_t start = i_;
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      if (v > (INT64_MAX - 9) / 10) return false;
      v = v * 10 + (peek() - '0');
      ++i_;
    }
    out = v;
    return i_ > start;
  }
  std::string_view rest() const { return s_.substr(i_); }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

int cmp_i64(std::int64_t a, std::int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Local segments: numeric ones compare as numbers and sort after alphanumeric ones.
int cmp_local_segment(const std::string& a, const std::string& b) {
  const bool an = all_digits(a), bn = all_digits(b);
  if (an && bn) {
    std::string_view x = a, y = b;
    while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
    while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
    if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (an != bn) return an ? 1 : -1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

std::optional<Pep440Version> Pep440Version::parse(std::string_view text) {
  Pep440Version v;
  v.text_ = std::string(trim(text));
  const std::string lower = to_lower(v.text_);
  Cursor c(lower);
  c.eat('v');
  // Epoch: N!
  {
    const auto start = c.pos();
    std::int64_t n = 0;
    if (c.number(n) && c.eat('!')) v.epoch_ = n;
    else c.seek(start);
  }
  std::int64_t n = 0;
  if (!c.number(n)) return std::nullopt;
  v.release_.push_back(n);
  while (c.peek() == '.' && std::isdigit(static_cast<unsigned char>(c.peek(1)))) {
    c.eat('.');
    if (!c.number(n)) return std::nullopt;
    v.release_.push_back(n);
  }
  // Pre-release: [-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?N?
  {
    const auto start = c.pos();
    c.eat_sep();
    int kind = -1;
    if (c.eat_word("alpha")) kind = 0;
    else if (c.eat_word("beta")) kind = 1;
    else if (c.eat_word("preview") || c.eat_word("pre") || c.eat_word("rc")) kind = 2;
    else if (c.eat_word("a")) kind = 0;
    else if (c.eat_word("b")) kind = 1;
    else if (c.eat_word("c")) kind = 2;
    if (kind >= 0) {
      v.pre_kind_ = kind;
      const auto num_start = c.pos();
      c.eat_sep();
      if (!c.number(v.pre_num_)) {
        c.seek(num_start);
        v.pre_num_ = 0;
      }
    } else {
      c.seek(start);
    }
  }
  // Post-release: -N, or [-_.]?(post|rev|r)[-_.]?N?
  {
    const auto start = c.pos();
    std::int64_t p = 0;
    if (c.eat('-') && c.number(p)) {
      v.post_ = p;
    } else {
      c.seek(start);
      c.eat_sep();
      if (c.eat_word("post") || c.eat_word("rev") || c.eat_word("r")) {
        const auto num_start = c.pos();
        c.eat_sep();
        if (!c.number(p)) {
          c.seek(num_start);
          p = 0;
        }
        v.post_ = p;
      } else {
        c.seek(start);
      }
    }
  }
  // Dev release: [-_.]?dev[-_.]?N?
  {
    const auto start = c.pos();
    c.eat_sep();
    if (c.eat_word("dev")) {
      const auto num_start = c.pos();
      c.eat_sep();
      std::int64_t d = 0;
      if (!c.number(d)) {
        c.seek(num_start);
        d = 0;
      }
      v.dev_ = d;
    } else {
      c.seek(start);
    }
  }
  // Local label: +[a-z0-9]+([-_.][a-z0-9]+)*
  if (c.eat('+')) {
    std::string seg;
    for (char ch : c.rest()) {
      if (is_alnum(ch)) {
        seg += ch;
      } else if (ch == '-' || ch == '_' || ch == '.') {
        if (seg.empty()) return std::nullopt;
        v.local_.push_back(seg);
        seg.clear();
      } else {
        return std::nullopt;
      }
    }
    if (seg.empty()) return std::nullopt;
    v.local_.push_back(seg);
    v.local_text_ = join(v.local_, ".");
    c.seek(lower.size());
  }
  if (!c.done()) return std::nullopt;
  return v;
}

Pep440Version Pep440Version::public_version() const {
  Pep440Version p = *this;
  p.local_.clear();
  p.local_text_.clear();
  p.text_ = p.normalized();
  return p;
}

Pep440Version Pep440Version::base_version() const {
  Pep440Version b;
  b.epoch_ = epoch_;
  b.release_ = release_;
  b.text_ = b.normalized();
  return b;
}

std::string Pep440Version::normalized() const {
  std::string s;
  if (epoch_ != 0) s += std::to_string(epoch_) + "!";
  for (std::size_t i = 0; i < release_.size(); ++i) {
    if (i) s += '.';
    s += std::to_string(release_[i]);
  }
  if (pre_kind_ >= 0) s += std::string(pre_kind_ == 0 ? "a" : pre_kind_ == 1 ? "b" : "rc") + std::to_string(pre_num_);
  if (post_ >= 0) s += ".post" + std::to_string(post_);
  if (dev_ >= 0) s += ".dev" + std::to_string(dev_);
  if (!local_.empty()) s += "+" + local_text_;
  return s;
}

int Pep440Version::compare(const Pep440Version& o) const {
  if (int c = cmp_i64(epoch_, o.epoch_)) return c;
  // Release, trailing zeros ignored (1.0 == 1.0.0).
  const std::size_t n = std::max(release_.size(), o.release_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t a = i < release_.size() ? release_[i] : 0;
    const std::int64_t b = i < o.release_.size() ? o.release_[i] : 0;
    if (int c = cmp_i64(a, b)) return c;
  }
  // Pre-release key: a dev release of a final (1.0.dev1) sorts before any
  // pre-release; a final sorts after every pre-release.
  auto pre_key = [](const Pep440Version& v) -> std::pair<int, std::int64_t> {
    if (v.pre_kind_ < 0 && v.post_ < 0 && v.dev_ >= 0) return {-1, 0};
    if (v.pre_kind_ < 0) return {3, 0};
    return {v.pre_kind_, v.pre_num_};
  };
  const auto pa = pre_key(*this), pb = pre_key(o);
  if (int c = cmp_i64(pa.first, pb.first)) return c;
  if (int c = cmp_i64(pa.second, pb.second)) return c;
  // Post: none sorts first. Dev: none sorts last.
  if (int c = cmp_i64(post_, o.post_)) return c;
  const std::int64_t da = dev_ < 0 ? INT64_MAX : dev_, db = o.dev_ < 0 ? INT64_MAX : o.dev_;
  if (int c = cmp_i64(da, db)) return c;
  // Local: none sorts first; then segment by segment, a shorter prefix first.
  const std::size_t m = std::min(local_.size(), o.local_.size());
  for (std::size_t i = 0; i < m; ++i)
    if (int c = cmp_local_segment(local_[i], o.local_[i])) return c;
  return cmp_i64(static_cast<std::int64_t>(local_.size()), static_cast<std::int64_t>(o.local_.size()));
}

// Lets the specifier code see the parts without widening the public API.
struct Pep440Access {
  static int pre_kind(const Pep440Version& v) { return v.pre_kind_; }
  static std::int64_t pre_num(const Pep440Version& v) { return v.pre_num_; }
  static std::int64_t post(const Pep440Version& v) { return v.post_; }
  static std::int64_t dev(const Pep440Version& v) { return v.dev_; }
};

namespace {

bool prefix_match(const Pep440Version& candidate, const Pep440Version& prefix) {
  // "==1.2.*": the candidate's public version, zero-padded, starts with the
  // prefix's segments (packaging pads both release lists before comparing).
  if (candidate.epoch() != prefix.epoch()) return false;
  const auto& cr = candidate.release();
  const auto& pr = prefix.release();
  const bool prefix_has_suffix = Pep440Access::pre_kind(prefix) >= 0 || Pep440Access::post(prefix) >= 0 ||
                                 Pep440Access::dev(prefix) >= 0;
  for (std::size_t i = 0; i < pr.size(); ++i) {
    const std::int64_t c = i < cr.size() ? cr[i] : 0;
    if (c != pr[i]) return false;
  }
  if (!prefix_has_suffix) return true;
  // "==1.0rc1.*" and the like: the candidate's release must end where the
  // prefix's does and carry the same suffixes.
  for (std::size_t i = pr.size(); i < cr.size(); ++i)
    if (cr[i] != 0) return false;
  if (Pep440Access::pre_kind(prefix) >= 0 &&
      (Pep440Access::pre_kind(prefix) != Pep440Access::pre_kind(candidate) ||
       Pep440Access::pre_num(prefix) != Pep440Access::pre_num(candidate)))
    return false;
  if (Pep440Access::post(prefix) >= 0 && Pep440Access::post(prefix) != Pep440Access::post(candidate)) return false;
  if (Pep440Access::dev(prefix) >= 0 && Pep440Access::dev(prefix) != Pep440Access::dev(candidate)) return false;
  return true;
}

bool equal_clause(const Pep440Version& candidate, const Pep440Version& spec, bool wildcard) {
  if (wildcard) return prefix_match(candidate.public_version(), spec);
  // A specifier without a local label ignores the candidate's (PEP 440:
  // "2.1.0+cu121" satisfies "==2.1.0").
  if (!spec.has_local()) return candidate.public_version() == spec;
  return candidate == spec;
}

bool clause_holds(const Pep440Clause& cl, const Pep440Version& spec, const Pep440Version& v) {
  const Pep440Version pub = v.public_version();
  if (cl.op == "==") return equal_clause(v, spec, cl.wildcard);
  if (cl.op == "!=") return !equal_clause(v, spec, cl.wildcard);
  if (cl.op == "<=") return pub.compare(spec) <= 0;
  if (cl.op == ">=") return pub.compare(spec) >= 0;
  if (cl.op == "<") {
    if (!(pub < spec)) return false;
    // "<3.0" excludes 3.0's pre-releases unless the specifier is one itself.
    if (!spec.is_prerelease() && v.is_prerelease() && v.base_version() == spec.base_version()) return false;
    return true;
  }
  if (cl.op == ">") {
    if (!(spec < pub)) return false;
    // ">3.0" excludes 3.0's post-releases (unless the specifier is one) and 3.0+local.
    if (!spec.is_postrelease() && v.is_postrelease() && v.base_version() == spec.base_version()) return false;
    if (v.has_local() && v.base_version() == spec.base_version()) return false;
    return true;
  }
  if (cl.op == "~=") {
    // ~=V.N: >= V.N and == V.*  (suffixes dropped from the prefix).
    if (pub.compare(spec) < 0) return false;
    std::vector<std::int64_t> rel = spec.release();
    rel.pop_back();
    auto p = Pep440Version::parse([&] {
      std::string s = std::to_string(spec.epoch()) + "!";
      for (std::size_t i = 0; i < rel.size(); ++i) {
        if (i) s += '.';
        s += std::to_string(rel[i]);
      }
      return s;
    }());
    return p && prefix_match(pub, *p);
  }
  return false;
}

}  // namespace

std::optional<Pep440Specifier> Pep440Specifier::parse(std::string_view text) {
  Pep440Specifier s;
  const auto t = trim(text);
  if (t.empty()) return s;
  for (auto part : split(t, ',')) {
    auto p = trim(part);
    if (p.empty()) return std::nullopt;
    Pep440Clause cl;
    for (const char* op : {"===", "~=", "==", "!=", "<=", ">=", "<", ">"}) {
      if (starts_with(p, op)) {
        cl.op = op;
        break;
      }
    }
    if (cl.op.empty()) return std::nullopt;
    std::string_view ver = trim(p.substr(cl.op.size()));
    if (ver.empty()) return std::nullopt;
    if (cl.op == "===") {
      cl.version = std::string(ver);
      s.clauses_.push_back(cl);
      s.parsed_.push_back(std::nullopt);
      continue;
    }
    if (ver.size() >= 2 && ver.substr(ver.size() - 2) == ".*") {
      if (cl.op != "==" && cl.op != "!=") return std::nullopt;
      cl.wildcard = true;
      ver.remove_suffix(2);
    }
    auto v = Pep440Version::parse(ver);
    if (!v) return std::nullopt;
    // Only == and === may name a local version; ~= needs two release segments.
    if (v->has_local() && cl.op != "==" && cl.op != "!=") return std::nullopt;
    if (cl.wildcard && v->has_local()) return std::nullopt;
    if (cl.op == "~=" && v->release().size() < 2) return std::nullopt;
    cl.version = std::string(ver);
    s.clauses_.push_back(cl);
    s.parsed_.push_back(std::move(v));
  }
  return s;
}

bool Pep440Specifier::contains(const Pep440Version& v) const {
  for (std::size_t i = 0; i < clauses_.size(); ++i) {
    const auto& cl = clauses_[i];
    if (cl.op == "===") {
      if (to_lower(v.text()) != to_lower(cl.version)) return false;
      continue;
    }
    if (!clause_holds(cl, *parsed_[i], v)) return false;
  }
  return true;
}

bool Pep440Specifier::contains(std::string_view version_text) const {
  auto v = Pep440Version::parse(version_text);
  if (v) return contains(*v);
  // A legacy version can only match "===".
  if (clauses_.empty()) return true;
  for (auto& cl : clauses_)
    if (cl.op != "===" || to_lower(trim(version_text)) != to_lower(cl.version)) return false;
  return true;
}

}  // namespace gpucheck
