// PEP 508 environment markers (peps.python.org/pep-0508), evaluated
// three-valued against what is known of the environment.
#include "parse/python_marker.hpp"

#include <cctype>

#include "parse/python_lexing.hpp"
#include "parse/python_version.hpp"

namespace gpucheck {

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

}  // namespace gpucheck
