// Python packaging metadata, markers, conda-meta and framework build files.
// Sources: the core metadata spec (packaging.python.org/specifications/core-metadata),
// PEP 508 (requirements, markers), setuptools' requires.txt format, conda's
// conda-meta records and match specs (docs.conda.io, "Package match specifications").
#include "parse/python_metadata.hpp"

#include <cctype>
#include <nlohmann/json.hpp>

#include "parse/python_version.hpp"
#include "util/version.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }


}  // namespace

Result<CoreMetadata> parse_core_metadata(std::string_view text) {
  // Only the header block is looked at (and checked for binary data): the
  // long description after it can be large and is not needed.
  std::size_t header_end = 0;
  while (header_end < text.size()) {
    const auto nl = text.find('\n', header_end);
    const std::size_t line_end = nl == std::string_view::npos ? text.size() : nl;
    if (trim(text.substr(header_end, line_end - header_end)).empty()) break;
    header_end = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  const std::string_view headers = text.substr(0, header_end);
  if (!is_text(headers) || (headers.empty() && !is_text(text.substr(0, 512))))
    return Problem{Reason::malformed, "", "holds binary data, not text"};
  CoreMetadata m;
  std::string key, value;
  bool have_name = false, have_version = false;
  auto flush = [&] {
    if (key.empty()) return;
    const std::string v(trim(value));
    if (!have_name && key.size() == 4 && to_lower(key) == "name") {
      m.name = v;
      have_name = true;
    } else if (!have_version && key.size() == 7 && to_lower(key) == "version") {
      m.version = v;
      have_version = true;
    } else if (key.size() == 13 && to_lower(key) == "requires-dist" && !v.empty()) {
      m.requires_dist.push_back(v);
    }
    key.clear();
    value.clear();
  };
  std::size_t pos = 0;
  while (pos < headers.size()) {
    const auto nl = headers.find('\n', pos);
    std::string_view line = headers.substr(pos, (nl == std::string_view::npos ? headers.size() : nl) - pos);
    pos = nl == std::string_view::npos ? headers.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_space(line[0])) {  // a continuation of the previous header
      value += " ";
      value += trim(line);
      continue;
    }
    flush();
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // not a header: ignored, as email.parser does
    key = std::string(trim(line.substr(0, colon)));
    value = std::string(trim(line.substr(colon + 1)));
  }
  flush();
  if (!have_name || m.name.empty()) return Problem{Reason::malformed, "", "no Name header (truncated or not core metadata)"};
  if (!have_version || m.version.empty()) return Problem{Reason::malformed, "", "no Version header (truncated or not core metadata)"};
  return m;
}

std::vector<std::string> parse_requires_txt(std::string_view text) {
  std::vector<std::string> out;
  std::string section_marker;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      auto inner = trim(line.substr(1, line.size() - 2));
      const auto colon = inner.find(':');
      const std::string extra(trim(inner.substr(0, colon)));
      const std::string marker = colon == std::string_view::npos ? "" : std::string(trim(inner.substr(colon + 1)));
      section_marker.clear();
      if (!marker.empty()) section_marker = "(" + marker + ")";
      if (!extra.empty()) section_marker += (section_marker.empty() ? "" : " and ") + std::string("extra == \"") + extra + "\"";
      continue;
    }
    std::string req(line);
    if (!section_marker.empty()) {
      // A requirement line may carry its own marker; both must hold.
      const auto semi = req.find(';');
      if (semi == std::string::npos) req += "; " + section_marker;
      else req = req.substr(0, semi) + "; (" + std::string(trim(std::string_view(req).substr(semi + 1))) + ") and " + section_marker;
    }
    out.push_back(req);
  }
  return out;
}

Result<ParsedRequirement> parse_requirement(std::string_view line) {
  ParsedRequirement r;
  std::string_view s = trim(line);
  const auto semi = s.find(';');
  if (semi != std::string_view::npos) {
    auto marker = trim(s.substr(semi + 1));
    if (!marker.empty()) r.marker = std::string(marker);
    s = trim(s.substr(0, semi));
  }
  std::size_t i = 0;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_' || s[i] == '.')) ++i;
  if (i == 0) return Problem{Reason::malformed, std::string(line), "a requirement must start with a project name"};
  r.name = normalize_dist_name(s.substr(0, i));
  std::string_view rest = trim(s.substr(i));
  if (!rest.empty() && rest.front() == '[') {  // extras: "[cuda,fast]"
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return Problem{Reason::malformed, std::string(line), "unclosed extras bracket"};
    rest = trim(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '@') {
    r.url = std::string(trim(rest.substr(1)));
    return r;
  }
  if (!rest.empty() && rest.front() == '(') {  // the old "name (>=1.0)" form
    if (rest.back() != ')') return Problem{Reason::malformed, std::string(line), "unclosed parenthesis"};
    rest = trim(rest.substr(1, rest.size() - 2));
  }
  for (char c : rest)
    if (!is_space(c)) r.specifier += c;
  return r;
}

// --- markers ---

namespace {

struct Token {
  enum Kind { var, str, op, lparen, rparen, and_, or_, end, bad } kind;
  std::string text;
};

class MarkerParser {
 public:
  MarkerParser(std::string_view s, const MarkerEnv& env) : s_(s), env_(env) { next(); }

  // nullopt: unknown. Sets failed_ on a syntax error.
  std::optional<bool> expr() {
    auto v = and_expr();
    while (tok_.kind == Token::or_) {
      next();
      auto r = and_expr();
      if (v == true || r == true) v = true;
      else if (v == false && r == false) v = false;
      else v = std::nullopt;
    }
    return v;
  }
  bool ok() const { return !failed_ && tok_.kind == Token::end; }

 private:
  std::optional<bool> and_expr() {
    auto v = atom();
    while (tok_.kind == Token::and_) {
      next();
      auto r = atom();
      if (v == false || r == false) v = false;
      else if (v == true && r == true) v = true;
      else v = std::nullopt;
    }
    return v;
  }

  std::optional<bool> atom() {
    if (tok_.kind == Token::lparen) {
      next();
      auto v = expr();
      if (tok_.kind != Token::rparen) failed_ = true;
      else next();
      return v;
    }
    Token lhs = tok_;
    if (lhs.kind != Token::var && lhs.kind != Token::str) {
      failed_ = true;
      return std::nullopt;
    }
    next();
    if (tok_.kind != Token::op) {
      failed_ = true;
      return std::nullopt;
    }
    const std::string op = tok_.text;
    next();
    Token rhs = tok_;
    if (rhs.kind != Token::var && rhs.kind != Token::str) {
      failed_ = true;
      return std::nullopt;
    }
    next();
    return compare(lhs, op, rhs);
  }

  std::optional<std::string> value(const Token& t) const {
    if (t.kind == Token::str) return t.text;
    auto it = env_.values.find(t.text);
    if (it == env_.values.end()) {
      if (t.text == "extra") return std::string();  // no extra was asked for
      return std::nullopt;
    }
    return it->second;
  }

  std::optional<bool> compare(const Token& lhs, const std::string& op, const Token& rhs) const {
    auto a = value(lhs), b = value(rhs);
    if (!a || !b) return std::nullopt;
    const bool is_extra = (lhs.kind == Token::var && lhs.text == "extra") || (rhs.kind == Token::var && rhs.text == "extra");
    if (is_extra) {
      // PEP 685: extras compare normalised.
      *a = normalize_dist_name(*a);
      *b = normalize_dist_name(*b);
    }
    if (op == "in") return b->find(*a) != std::string::npos;
    if (op == "not in") return b->find(*a) == std::string::npos;
    // PEP 508: a version comparison when both sides are versions, else strings.
    auto va = Pep440Version::parse(*a);
    auto spec = Pep440Specifier::parse(op + *b);
    if (!is_extra && va && spec) return spec->contains(*va);
    if (op == "==" || op == "===") return *a == *b;
    if (op == "!=") return *a != *b;
    return std::nullopt;
  }

  void next() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ >= s_.size()) {
      tok_ = {Token::end, ""};
      return;
    }
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      tok_ = {Token::lparen, "("};
      return;
    }
    if (c == ')') {
      ++pos_;
      tok_ = {Token::rparen, ")"};
      return;
    }
    if (c == '"' || c == '\'') {
      const auto close = s_.find(c, pos_ + 1);
      if (close == std::string_view::npos) {
        tok_ = {Token::bad, ""};
        failed_ = true;
        pos_ = s_.size();
        return;
      }
      tok_ = {Token::str, std::string(s_.substr(pos_ + 1, close - pos_ - 1))};
      pos_ = close + 1;
      return;
    }
    for (const char* op : {"===", "==", "!=", "<=", ">=", "~=", "<", ">"}) {
      if (s_.substr(pos_, std::char_traits<char>::length(op)) == op) {
        tok_ = {Token::op, op};
        pos_ += std::char_traits<char>::length(op);
        return;
      }
    }
    if (is_ident_start(c)) {
      std::size_t e = pos_;
      while (e < s_.size() && (is_ident(s_[e]) || s_[e] == '.')) ++e;
      std::string word(s_.substr(pos_, e - pos_));
      pos_ = e;
      if (word == "and") tok_ = {Token::and_, word};
      else if (word == "or") tok_ = {Token::or_, word};
      else if (word == "in") tok_ = {Token::op, "in"};
      else if (word == "not") {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        if (s_.substr(pos_, 2) == "in") {
          pos_ += 2;
          tok_ = {Token::op, "not in"};
        } else {
          tok_ = {Token::bad, word};
          failed_ = true;
        }
      } else {
        if (word.rfind("os.", 0) == 0 || word.rfind("sys.", 0) == 0 || word.rfind("platform.", 0) == 0) {
          // PEP 345's dotted names: os.name, sys.platform, platform.machine …
          for (auto& ch : word)
            if (ch == '.') ch = '_';
        }
        tok_ = {Token::var, word};
      }
      return;
    }
    tok_ = {Token::bad, std::string(1, c)};
    failed_ = true;
    pos_ = s_.size();
  }

  std::string_view s_;
  const MarkerEnv& env_;
  std::size_t pos_ = 0;
  Token tok_{Token::end, ""};
  bool failed_ = false;
};

}  // namespace

std::optional<bool> evaluate_marker(std::string_view marker, const MarkerEnv& env) {
  MarkerParser p(marker, env);
  auto v = p.expr();
  if (!p.ok()) return std::nullopt;
  return v;
}

// --- conda ---

Result<CondaRecord> parse_conda_meta(std::string_view text) {
  using nlohmann::json;
  // conda-meta records list every installed file ("files", "paths_data"):
  // megabytes for a big package. Those members are dropped while parsing.
  json::parser_callback_t drop_big = [](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key && parsed.is_string()) {
      const auto& k = parsed.get_ref<const std::string&>();
      return k != "files" && k != "paths_data" && k != "link";
    }
    return true;
  };
  json j = json::parse(text.begin(), text.end(), drop_big, false);
  if (j.is_discarded()) return Problem{Reason::malformed, "", "not JSON"};
  if (!j.is_object()) return Problem{Reason::malformed, "", "not a JSON object"};
  auto str = [&](const char* k) -> std::optional<std::string> {
    auto it = j.find(k);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  CondaRecord r;
  auto name = str("name"), version = str("version");
  if (!name || name->empty()) return Problem{Reason::malformed, "", "no \"name\" string"};
  if (!version || version->empty()) return Problem{Reason::malformed, "", "no \"version\" string"};
  r.name = *name;
  r.version = *version;
  r.build = str("build").value_or("");
  r.channel = str("channel");
  r.url = str("url");
  if (auto it = j.find("depends"); it != j.end() && it->is_array())
    for (auto& d : *it)
      if (d.is_string()) r.depends.push_back(d.get<std::string>());
  return r;
}

CondaDepend parse_conda_depend(std::string_view spec) {
  CondaDepend d;
  auto s = trim(spec);
  auto parts = split(s, ' ');
  std::vector<std::string_view> words;
  for (auto p : parts)
    if (!trim(p).empty()) words.push_back(trim(p));
  if (words.empty()) return d;
  d.name = std::string(words[0]);
  if (words.size() < 2) {
    d.specifier = "";
    return d;
  }
  d.raw = std::string(words[1]);
  if (d.raw.find('|') != std::string::npos) return d;  // alternatives: no PEP 440 spelling
  std::string out;
  for (auto clause : split(d.raw, ',')) {
    std::string c(trim(clause));
    if (c.empty()) return d;
    const bool has_op = c[0] == '<' || c[0] == '>' || c[0] == '=' || c[0] == '!' || c[0] == '~';
    if (!has_op) {
      // conda: a bare version is fuzzy ("11.8" matches 11.8.*); "11.8.*" likewise.
      if (c.size() < 2 || c.substr(c.size() - 2) != ".*") c += ".*";
      c = "==" + c;
    } else if (c[0] == '=' && (c.size() < 2 || c[1] != '=')) {
      // "=1.2" is conda's fuzzy equality.
      c = "==" + c.substr(1) + (c.size() > 2 && c.substr(c.size() - 2) == ".*" ? "" : ".*");
    }
    if (!out.empty()) out += ",";
    out += c;
  }
  if (!Pep440Specifier::parse(out)) return d;
  d.specifier = out;
  return d;
}

// --- Python source assignments ---

std::map<std::string, std::string> parse_python_assignments(std::string_view s) {
  std::map<std::string, std::string> out;
  auto skip_spaces = [&](std::size_t j) {
    while (j < s.size() && is_space(s[j])) ++j;
    return j;
  };
  auto read_value = [&](std::size_t j) -> std::optional<std::string> {
    j = skip_spaces(j);
    if (j >= s.size()) return std::nullopt;
    const char c = s[j];
    if (c == '"' || c == '\'') {
      const auto close = s.find(c, j + 1);
      if (close == std::string_view::npos) return std::nullopt;
      return std::string(s.substr(j + 1, close - j - 1));
    }
    if (c == '[' || c == '(') {
      const char closing = c == '[' ? ']' : ')';
      const auto close = s.find(closing, j);
      if (close == std::string_view::npos) return std::nullopt;
      return std::string(s.substr(j, close - j + 1));
    }
    std::size_t e = j;
    while (e < s.size() && (is_ident(s[e]) || s[e] == '.' || s[e] == '-')) ++e;
    if (e == j) return std::nullopt;
    return std::string(s.substr(j, e - j));
  };
  bool line_start = true;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      // 'key': value  or  name['key'] = value
      const auto close = s.find(c, i + 1);
      if (close == std::string_view::npos) break;
      const std::string key(s.substr(i + 1, close - i - 1));
      std::size_t j = skip_spaces(close + 1);
      if (j < s.size() && s[j] == ']') j = skip_spaces(j + 1);
      if (j < s.size() && (s[j] == ':' || (s[j] == '=' && (j + 1 >= s.size() || s[j + 1] != '=')))) {
        if (auto v = read_value(j + 1); v && !out.count(key)) out[key] = *v;
      }
      i = close + 1;
      line_start = false;
      continue;
    }
    if (line_start && is_ident_start(c)) {
      // name = value  or  name: Annotation = value
      std::size_t e = i;
      while (e < s.size() && is_ident(s[e])) ++e;
      const std::string key(s.substr(i, e - i));
      std::size_t j = skip_spaces(e);
      if (j < s.size() && s[j] == ':') {
        while (j < s.size() && s[j] != '=' && s[j] != '\n') ++j;
      }
      if (j < s.size() && s[j] == '=' && (j + 1 >= s.size() || s[j + 1] != '=')) {
        if (auto v = read_value(j + 1); v && !out.count(key)) out[key] = *v;
      }
      i = e;
      line_start = false;
      continue;
    }
    if (!is_space(c)) line_start = false;
    ++i;
  }
  return out;
}

std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text) {
  std::map<std::string, std::string> out;
  for (auto line : split_lines(text)) {
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    out[to_lower(trim(line.substr(0, eq)))] = std::string(trim(line.substr(eq + 1)));
  }
  return out;
}

// --- answers of the interpreter ---

Result<InterpreterAnswer> parse_interpreter_answer(std::string_view text) {
  // Fields separated by NUL: version, prefix, base prefix, executable, then sys.path.
  std::vector<std::string_view> fields;
  for (std::size_t from = 0;;) {
    const auto nul = text.find('\0', from);
    fields.push_back(text.substr(from, nul == std::string_view::npos ? std::string_view::npos : nul - from));
    if (nul == std::string_view::npos) break;
    from = nul + 1;
  }
  const auto shown = [&] {
    std::string s = "\"";
    s += trim(text.substr(0, std::min<std::size_t>(80, text.find('\0'))));
    s += '"';
    return s;
  };
  if (fields.size() < 4)
    return Problem{Reason::malformed, "", "the sys.path answer is not version, prefix, base prefix, executable and paths separated by NUL: " + shown()};
  if (!Version::parse(fields[0]))
    return Problem{Reason::malformed, "", "the sys.path answer does not start with a Python version: " + shown()};
  InterpreterAnswer a{std::string(fields[0]), std::string(fields[1]), std::string(fields[2]), std::string(fields[3]), {}};
  for (std::size_t i = 4; i < fields.size(); ++i)
    if (!fields[i].empty() && fields[i] != ".") a.path.emplace_back(fields[i]);
  return a;
}

Result<DeepProbeFacts> parse_deep_answer(std::string_view text) {
  using nlohmann::json;
  // The script prints one JSON object on its last line; a framework may have
  // printed warnings before it.
  std::string_view last;
  for (auto line : split_lines(text))
    if (!trim(line).empty()) last = trim(line);
  json j = json::parse(last.begin(), last.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Problem{Reason::malformed, "", "the deep probe's answer is not a JSON object: \"" + std::string(last.substr(0, 80)) + "\""};
  DeepProbeFacts d;
  auto ostr = [](const json& o, const char* k) -> std::optional<std::string> {
    auto it = o.find(k);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  auto obool = [](const json& o, const char* k) -> std::optional<bool> {
    auto it = o.find(k);
    if (it == o.end() || !it->is_boolean()) return std::nullopt;
    return it->get<bool>();
  };
  auto strs = [](const json& o, const char* k) {
    std::vector<std::string> v;
    auto it = o.find(k);
    if (it != o.end() && it->is_array())
      for (auto& e : *it)
        if (e.is_string()) v.push_back(e.get<std::string>());
    return v;
  };
  d.error = ostr(j, "error");
  if (auto it = j.find("frameworks"); it != j.end() && it->is_array()) {
    for (auto& f : *it) {
      if (!f.is_object()) continue;
      DeepFramework fw;
      fw.name = ostr(f, "name").value_or("");
      if (fw.name.empty()) continue;
      fw.version = ostr(f, "version");
      fw.import_error = ostr(f, "import_error");
      fw.cuda_available = obool(f, "cuda_available");
      if (auto c = f.find("device_count"); c != f.end() && c->is_number_integer()) fw.device_count = c->get<int>();
      fw.arch_list = strs(f, "arch_list");
      fw.cudnn_version = ostr(f, "cudnn_version");
      fw.nccl_version = ostr(f, "nccl_version");
      fw.loaded_libraries = strs(f, "loaded_libraries");
      fw.tf32_matmul = obool(f, "tf32_matmul");
      fw.tf32_cudnn = obool(f, "tf32_cudnn");
      fw.float32_matmul_precision = ostr(f, "float32_matmul_precision");
      fw.bf16_supported = obool(f, "bf16_supported");
      if (auto e = f.find("fp32_matmul_rel_error"); e != f.end() && e->is_number()) fw.fp32_matmul_rel_error = e->get<double>();
      fw.fp32_matmul_looks_tf32 = obool(f, "fp32_matmul_looks_tf32");
      d.frameworks.push_back(std::move(fw));
    }
  }
  return d;
}

// --- names and tags ---

std::optional<std::string> cuda_from_local_tag(std::string_view tag) {
  std::string t = to_lower(tag);
  // jaxlib's "cuda12.cudnn89": the first segment.
  if (auto dot = t.find('.'); dot != std::string::npos && t.rfind("cuda", 0) == 0) t = t.substr(0, dot);
  std::string digits;
  if (t.rfind("cuda", 0) == 0) digits = t.substr(4);
  else if (t.rfind("cu", 0) == 0) digits = t.substr(2);
  else return std::nullopt;
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  if (t.rfind("cuda", 0) == 0 || digits.size() == 1) return digits;  // "cuda12" -> "12"
  // "cu121" -> 12.1, "cu118" -> 11.8, "cu92" -> 9.2: the last digit is the minor.
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

std::optional<std::string> hip_from_local_tag(std::string_view tag) {
  const std::string t = to_lower(tag);
  if (t.rfind("rocm", 0) != 0 || t.size() == 4) return std::nullopt;
  const std::string v = t.substr(4);
  if (!std::isdigit(static_cast<unsigned char>(v[0]))) return std::nullopt;
  return v;
}

std::optional<NameVersion> split_metadata_dir_name(std::string_view dir_name) {
  std::string_view s = dir_name;
  for (std::string_view ext : {".dist-info", ".egg-info"}) {
    if (s.size() > ext.size() && s.substr(s.size() - ext.size()) == ext) {
      s.remove_suffix(ext.size());
      const auto dash = s.find('-');
      if (dash == std::string_view::npos || dash == 0) return std::nullopt;
      NameVersion nv{std::string(s.substr(0, dash)), std::string(s.substr(dash + 1))};
      // egg-info: "name-1.0-py3.10"; wheels escape "-" in the version, so a second dash ends it.
      if (auto d2 = nv.version.find('-'); d2 != std::string::npos) nv.version.resize(d2);
      if (nv.version.empty()) return std::nullopt;
      return nv;
    }
  }
  return std::nullopt;
}

}  // namespace gpucheck
