package action

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/srezc/srezc/value"
)

// Call is one parsed text action.
type Call struct {
	Tool      string
	ToolRange Range
	Args      []Arg
	// Range spans the tool name through the closing ")", without the
	// surrounding whitespace.
	Range Range
}

// Arg is one argument as written.
type Arg struct {
	// Name is the parameter an argument written as name=value names
	// ("root_cause=\"...\""), or "" for a positional one.
	Name  string
	Value value.Value
	// Bare reports a String written without quotes. It is false for
	// numbers, bools and quoted strings.
	Bare bool
	// Range spans the argument as written: quotes included, surrounding
	// whitespace excluded.
	Range Range
}

// Filename is the Filename of every Range that Parse returns.
const Filename = "action"

// Range is a span of an action's text; lang maps it into the HCL string
// an expert action sits in.
type Range struct {
	Filename   string
	Start, End Pos
}

// Pos is a position in an action's text; Column counts bytes.
type Pos struct {
	Line, Column, Byte int
}

// Error is a syntax error, located in the action's text: Summary is
// always "Invalid action syntax", Detail says what is wrong there.
type Error struct {
	Summary string
	Detail  string
	Subject *Range
}

func (e *Error) Error() string { return e.Detail }

const actionSummary = "Invalid action syntax"

// The action grammar, token by token. Rules are tried in order and the first
// match wins, so Ident comes before Number and Number before Word. Every byte
// of every input matches some rule (Other catches the rest), so lexing never
// fails and every syntax error is an unexpected token the parser can name.
var actionLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Newline", Pattern: `\r\n?|\n`},
	{Name: "Whitespace", Pattern: `[ \t]+`},
	{Name: "String", Pattern: `"(?:[^"\\]|\\(?s:.))*"`},
	{Name: "RawString", Pattern: `'(?:[^'\\]|\\(?s:.))*'`},
	// A quote no String or RawString rule could close runs to the end.
	{Name: "BadString", Pattern: `["'](?s:.*)`},
	// A parameter name before "=": resolve_incident(root_cause="...").
	{Name: "Named", Pattern: `[A-Za-z_][A-Za-z0-9_]*[ \t]*=`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Number", Pattern: `[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`},
	{Name: "Word", Pattern: `[\p{L}\p{M}\p{N}_/.:\-]+`},
	{Name: "Punct", Pattern: `[(),]`},
	{Name: "Other", Pattern: `(?s:.)`},
})

// actionNode is the grammar: a tool name, "(", comma-separated arguments
// with no trailing comma, ")", and nothing after (participle rejects trailing
// tokens). Whitespace is elided; a line break is a token the grammar never
// accepts, so it is an error anywhere outside a string.
type actionNode struct {
	Tokens []lexer.Token
	Tool   string     `parser:"@Ident '('"`
	Args   []*argNode `parser:"( @@ ( ',' @@ )* )? ')'"`
}

// argNode is one argument, perhaps after "name=": a quoted string, or a
// run of bare words (with the whitespace between them) up to the next ","
// or ")".
type argNode struct {
	Tokens []lexer.Token
	Name   *string  `parser:"@Named?"`
	Str    *string  `parser:"(  @String"`
	Raw    *string  `parser:"| @RawString"`
	Bare   []string `parser:"| @( Ident | Number | Word )+ )"`
}

var actionParser = participle.MustBuild[actionNode](
	participle.Lexer(actionLexer),
	participle.Elide("Whitespace"),
	// The grammar is LL(1) and never needs to back out of a token it
	// consumed; with no lookahead an argument missing after "," is reported
	// where it is missing, not at the ",".
	participle.UseLookahead(0),
)

var (
	tokWhitespace = actionLexer.Symbols()["Whitespace"]
	tokNewline    = actionLexer.Symbols()["Newline"]
	tokString     = actionLexer.Symbols()["String"]
	tokRawString  = actionLexer.Symbols()["RawString"]
	tokBadString  = actionLexer.Symbols()["BadString"]
	tokIdent      = actionLexer.Symbols()["Ident"]
	tokNamed      = actionLexer.Symbols()["Named"]
	tokNumber     = actionLexer.Symbols()["Number"]
	tokWord       = actionLexer.Symbols()["Word"]
	tokOther      = actionLexer.Symbols()["Other"]
)

// Parse parses one text action such as
//
//	update_config(database, pool_size, 150)
//
// It knows no tool names or arities; it only reads the syntax and types each
// argument: 50 is an int, 50.0 a float, true a bool, "50" a string, and
// unquoted text that is none of those a bare string. On failure it returns
// one error diagnostic whose Subject points at the offending text: the first
// syntax error if there is one, else the first argument whose value cannot be
// read (a bad escape, an integer beyond int64, a float beyond float64).
func Parse(src string) (Call, *Error) {
	node, err := actionParser.ParseString(Filename, src)
	if err != nil {
		return Call{}, syntaxError(src, err)
	}
	toks := significant(node.Tokens)
	if len(toks) < 3 { // cannot happen: a parse holds tool, "(" and ")"
		return Call{}, actionError(src, 0, len(src), "expected a tool name followed by (...)")
	}
	toolStart, toolEnd := tokSpan(toks[0])
	_, closeEnd := tokSpan(toks[len(toks)-1])
	call := Call{
		Tool:      node.Tool,
		ToolRange: actionRange(src, toolStart, toolEnd),
		Range:     actionRange(src, toolStart, closeEnd),
	}
	if len(node.Args) > 0 {
		call.Args = make([]Arg, 0, len(node.Args))
	}
	for _, a := range node.Args {
		arg, diag := convertArg(src, a)
		if diag != nil {
			return Call{}, diag
		}
		call.Args = append(call.Args, arg)
	}
	return call, nil
}

// Format renders call canonically: the tool, "(", the arguments joined
// by ", ", and ")". Quoted strings are written with strconv.Quote, bare
// strings as they read, numbers and bools by value.Value.String, so floats
// keep a decimal point. Parse reads the result back to the same tool
// and the same typed values.
func Format(call Call) string {
	b := make([]byte, 0, len(call.Tool)+2+16*len(call.Args))
	b = append(b, call.Tool...)
	b = append(b, '(')
	for i, a := range call.Args {
		if i > 0 {
			b = append(b, ", "...)
		}
		if a.Name != "" {
			b = append(b, a.Name...)
			b = append(b, '=')
		}
		if a.Value.K == value.String && !a.Bare {
			b = strconv.AppendQuote(b, a.Value.S)
		} else {
			b = a.Value.Append(b)
		}
	}
	b = append(b, ')')
	return string(b)
}

func convertArg(src string, a *argNode) (Arg, *Error) {
	toks := significant(a.Tokens)
	if len(toks) == 0 { // cannot happen: every argument has a token
		return Arg{}, actionError(src, 0, len(src), "expected an argument")
	}
	start, _ := tokSpan(toks[0])
	_, end := tokSpan(toks[len(toks)-1])
	arg := Arg{Range: actionRange(src, start, end)}
	if toks[0].Type == tokNamed {
		arg.Name = strings.TrimRight(strings.TrimSuffix(toks[0].Value, "="), " \t")
		toks = significant(toks[1:])
		start, _ = tokSpan(toks[0])
	}
	text := src[start:end]
	switch toks[0].Type {
	case tokString:
		s, diag := unquoteDouble(src, start, end)
		if diag != nil {
			return Arg{}, diag
		}
		arg.Value = value.OfString(s)
	case tokRawString:
		arg.Value = value.OfString(unquoteSingle(text))
	default:
		switch {
		case text == "true":
			arg.Value = value.OfBool(true)
		case text == "false":
			arg.Value = value.OfBool(false)
		case isIntText(text):
			i, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return Arg{}, actionError(src, start, end,
					"integer "+text+" is out of range for a 64-bit integer")
			}
			arg.Value = value.OfInt(i)
		case isFloatText(text):
			f, err := strconv.ParseFloat(text, 64)
			if err != nil { // only ErrRange: the syntax was checked
				return Arg{}, actionError(src, start, end,
					"number "+text+" is out of range for a float")
			}
			arg.Value = value.OfFloat(f)
		default:
			arg.Value = value.OfString(text)
			arg.Bare = true
		}
	}
	return arg, nil
}

// Order puts named arguments where the tool's parameters, listed in
// params, take them, so that resolve_incident(fix="...", root_cause="...")
// binds as resolve_incident("...", "..."). Positional arguments come
// first; a name the tool has not, a parameter given twice, a positional
// argument after a named one, or a gap before a named one is an error
// located at the argument.
func (c *Call) Order(params []string) *Error {
	named := false
	for _, a := range c.Args {
		named = named || a.Name != ""
	}
	if !named {
		return nil
	}
	out := make([]Arg, len(params))
	set := make([]bool, len(params))
	last := -1
	for i, a := range c.Args {
		at := func(detail string) *Error {
			return &Error{Summary: actionSummary, Detail: detail, Subject: &a.Range}
		}
		j := i
		if a.Name == "" {
			if i > 0 && c.Args[i-1].Name != "" {
				return at("a positional argument cannot follow a named one")
			}
		} else {
			j = -1
			for k, p := range params {
				if p == a.Name {
					j = k
				}
			}
			if j < 0 {
				return at(c.Tool + " has no parameter " + a.Name + "; its parameters are " + strings.Join(params, ", "))
			}
		}
		if j >= len(params) {
			return at(c.Tool + " takes " + strconv.Itoa(len(params)) + " arguments (" + strings.Join(params, ", ") + ")")
		}
		if set[j] {
			return at(params[j] + " is given twice")
		}
		a.Name = ""
		out[j], set[j] = a, true
		last = max(last, j)
	}
	for j := 0; j <= last; j++ {
		if !set[j] {
			return &Error{Summary: actionSummary, Detail: c.Tool + " needs " + params[j] + " before the arguments after it", Subject: &c.Range}
		}
	}
	c.Args = out[:last+1]
	return nil
}

// Resolution reads a native resolve_incident action's root cause and fix,
// positional or named; ok is false for any other text.
func Resolution(text string) (rootCause, fix string, ok bool) {
	call, d := Parse(text)
	if d != nil || call.Tool != "resolve_incident" || call.Order([]string{"root_cause", "fix"}) != nil {
		return "", "", false
	}
	for i, arg := range call.Args {
		s := arg.Value.S
		if arg.Value.K != value.String {
			s = arg.Value.String()
		}
		switch i {
		case 0:
			rootCause = s
		case 1:
			fix = s
		}
	}
	return rootCause, fix, true
}

// isIntText reports whether s is an optional sign and one or more digits.
func isIntText(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && skipDigits(s) == len(s)
}

// isFloatText reports whether s is an optional sign, a mantissa with a
// decimal point (5.0, 5., .5) and/or an exponent (1e3, 2.5E-2).
func isFloatText(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n := skipDigits(s)
	digits := n
	frac := false
	if n < len(s) && s[n] == '.' {
		frac = true
		m := skipDigits(s[n+1:])
		digits += m
		n += 1 + m
	}
	if digits == 0 {
		return false
	}
	exp := false
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		n++
		if n < len(s) && (s[n] == '+' || s[n] == '-') {
			n++
		}
		m := skipDigits(s[n:])
		if m == 0 {
			return false
		}
		n += m
		exp = true
	}
	return n == len(s) && (frac || exp)
}

func skipDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// unquoteDouble decodes the double-quoted string src[start:end]. It accepts
// JSON's escapes (\" \\ \/ \b \f \n \r \t \uXXXX with surrogate pairs) and
// the rest of what strconv.Quote writes (\a \v \xHH \UXXXXXXXX), so that
// Format's output always reads back. Raw line breaks are kept.
func unquoteDouble(src string, start, end int) (string, *Error) {
	body := src[start+1 : end-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	base := start + 1
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(body) { // cannot happen: the lexer pairs every backslash
			return "", actionError(src, base+i, base+i+1, "unterminated escape in string")
		}
		switch e := body[i+1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
			i += 2
		case 'a':
			b.WriteByte('\a')
			i += 2
		case 'b':
			b.WriteByte('\b')
			i += 2
		case 'f':
			b.WriteByte('\f')
			i += 2
		case 'n':
			b.WriteByte('\n')
			i += 2
		case 'r':
			b.WriteByte('\r')
			i += 2
		case 't':
			b.WriteByte('\t')
			i += 2
		case 'v':
			b.WriteByte('\v')
			i += 2
		case 'x':
			v, ok := hexValue(body, i+2, 2)
			if !ok {
				return "", escapeError(src, body, base, i, 2, `\x escape needs 2 hexadecimal digits`)
			}
			b.WriteByte(byte(v))
			i += 4
		case 'u':
			r, ok := hexValue(body, i+2, 4)
			if !ok {
				return "", escapeError(src, body, base, i, 4, `\u escape needs 4 hexadecimal digits`)
			}
			n := 6
			if r >= 0xD800 && r < 0xDC00 && i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
				if lo, ok := hexValue(body, i+8, 4); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					n = 12
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				return "", actionError(src, base+i, base+i+n, `\u escape is an unpaired UTF-16 surrogate`)
			}
			b.WriteRune(r)
			i += n
		case 'U':
			r, ok := hexValue(body, i+2, 8)
			if !ok {
				return "", escapeError(src, body, base, i, 8, `\U escape needs 8 hexadecimal digits`)
			}
			if !utf8.ValidRune(r) {
				return "", actionError(src, base+i, base+i+10, `\U escape is not a valid Unicode code point`)
			}
			b.WriteRune(r)
			i += 10
		default:
			_, size := utf8.DecodeRuneInString(body[i+1:])
			esc := body[i : i+1+size]
			return "", actionError(src, base+i, base+i+1+size,
				"invalid escape "+strconv.Quote(esc)+` in a string; write \\ for a backslash`)
		}
	}
	return b.String(), nil
}

// escapeError reports a short numeric escape at body[i:], covering the
// backslash, the letter and the hex digits that are there.
func escapeError(src, body string, base, i, want int, detail string) *Error {
	end := i + 2
	for end < len(body) && end < i+2+want && isHex(body[end]) {
		end++
	}
	return actionError(src, base+i, base+end, detail)
}

func hexValue(s string, at, n int) (rune, bool) {
	if at+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[at : at+n]) {
		if !isHex(c) {
			return 0, false
		}
		v = v<<4 | rune(unhex(c))
	}
	return v, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// unquoteSingle decodes a single-quoted string: \' and \\ are the only
// escapes; any other backslash stays as written.
func unquoteSingle(tok string) string {
	body := tok[1 : len(tok)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' && i+1 < len(body) && (body[i+1] == '\'' || body[i+1] == '\\') {
			i++
			c = body[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

// significant drops the elided whitespace from a node's raw tokens.
func significant(toks []lexer.Token) []lexer.Token {
	for len(toks) > 0 && toks[0].Type == tokWhitespace {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].Type == tokWhitespace {
		toks = toks[:len(toks)-1]
	}
	return toks
}

func tokSpan(t lexer.Token) (int, int) { return t.Pos.Offset, t.Pos.Offset + len(t.Value) }

// syntaxError turns a participle error into a diagnostic. The grammar
// is LL(1), so the error sits on the first token that does not fit; what was
// expected there follows from that token and the one before it.
func syntaxError(src string, err error) *Error {
	off := 0
	if perr, ok := err.(participle.Error); ok {
		off = perr.Position().Offset
	}
	if off < 0 || off > len(src) {
		off = len(src)
	}
	toks, lexErr := lexAction(src)
	if lexErr != nil { // cannot happen: the Other rule matches any byte
		return actionError(src, off, off, "unreadable action text")
	}
	// at is the token the parser stopped on; prev the significant token
	// before it; first the first significant token of the input.
	at := lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Offset: len(src)}}
	var prev, first *lexer.Token
	for i := range toks {
		t := &toks[i]
		if t.Pos.Offset >= off && t.Type != tokWhitespace {
			at = *t
			break
		}
		if t.Type == tokWhitespace {
			continue
		}
		if first == nil {
			first = t
		}
		prev = t
	}
	start, end := tokSpan(at)
	quoted := strconv.Quote(at.Value)

	switch at.Type {
	case tokBadString:
		return actionError(src, start, len(src), "unterminated string: no closing "+at.Value[:1])
	case tokNewline:
		return actionError(src, start, end, "unexpected line break; an action must fit on one line (line breaks may only appear inside quoted strings)")
	}

	if prev == nil {
		if at.Type == lexer.EOF {
			return actionError(src, 0, len(src), "empty action: expected a tool name followed by (...)")
		}
		return actionError(src, start, end, "expected a tool name (letters, digits and underscores, not starting with a digit), found "+quoted)
	}
	if prev == first {
		_, prevEnd := tokSpan(*prev)
		if start == prevEnd && (at.Type == tokWord || at.Type == tokNumber || at.Type == tokOther) {
			r, size := utf8.DecodeRuneInString(src[start:])
			return actionError(src, start, start+size,
				"invalid character "+strconv.QuoteRune(r)+" in the tool name; tool names use letters, digits and underscores")
		}
		return actionError(src, start, end, `expected "(" after the tool name`)
	}

	switch prev.Value {
	case ")":
		// Every token before the error fitted the grammar, so this ")"
		// closed the argument list.
		return actionError(src, start, end, `unexpected text after ")"`)
	case "(", ",":
		return expectedArgument(src, *prev, at)
	}
	// The previous token ended (part of) an argument.
	switch {
	case at.Value == "(":
		return actionError(src, start, end, `unexpected "(" in an argument; quote text that contains parentheses`)
	case at.Type == tokOther:
		return actionError(src, start, end, "unexpected character "+quoted+" in an argument; quote text that contains it")
	case at.Type == lexer.EOF:
		return actionError(src, start, end, `expected "," or ")" after the argument, found the end of the action`)
	}
	return actionError(src, start, end, `expected "," or ")" after the argument, found `+quoted)
}

// expectedArgument reports a token that stands where an argument should start,
// right after "(" or ",".
func expectedArgument(src string, prev, at lexer.Token) *Error {
	start, end := tokSpan(at)
	switch {
	case at.Value == ")" && prev.Value == ",":
		return actionError(src, start, end, `expected an argument after ","; a trailing comma is not allowed`)
	case at.Value == ",":
		return actionError(src, start, end, `expected an argument before ","; empty arguments are not allowed`)
	case at.Value == "(":
		return actionError(src, start, end, `unexpected "(" in an argument; quote text that contains parentheses`)
	case at.Type == tokOther:
		return actionError(src, start, end, "unexpected character "+strconv.Quote(at.Value)+" in an argument; quote text that contains it")
	case at.Type == lexer.EOF && prev.Value == "(":
		return actionError(src, start, end, `expected an argument or ")", found the end of the action`)
	case at.Type == lexer.EOF:
		return actionError(src, start, end, `expected an argument after ",", found the end of the action`)
	}
	return actionError(src, start, end, "expected an argument, found "+strconv.Quote(at.Value))
}

// lexAction splits src into tokens, whitespace included.
func lexAction(src string) ([]lexer.Token, error) {
	lex, err := actionLexer.LexString(Filename, src)
	if err != nil {
		return nil, err
	}
	var toks []lexer.Token
	for {
		t, err := lex.Next()
		if err != nil {
			return nil, err
		}
		if t.EOF() {
			return toks, nil
		}
		toks = append(toks, t)
	}
}

func actionError(src string, start, end int, detail string) *Error {
	r := actionRange(src, start, end)
	return &Error{Summary: actionSummary, Detail: detail, Subject: &r}
}

func actionRange(src string, start, end int) Range {
	return Range{Filename: Filename, Start: actionPos(src, start), End: actionPos(src, end)}
}

// actionPos is the position of byte off of src; Column counts bytes.
func actionPos(src string, off int) Pos {
	before := src[:off]
	nl := strings.LastIndexByte(before, '\n')
	if nl < 0 {
		return Pos{Line: 1, Column: off + 1, Byte: off}
	}
	return Pos{Line: 1 + strings.Count(before, "\n"), Column: off - nl, Byte: off}
}
