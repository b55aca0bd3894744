package action

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// The reference's error messages, verbatim.
const (
	refErrSyntax = "Action must use function-call syntax, for example inspect_logs(web_server)."
	refErrCSV    = "Could not parse action arguments: "
	// refFieldLimit is csv.field_size_limit()'s default.
	refFieldLimit    = 131072
	refErrFieldLimit = refErrCSV + "field larger than field limit (131072)"
	// A carriage return ends a csv record, so text after one fails. The
	// wording is CPython 3.11's: the golden episodes' float sums show the
	// reference ran on 3.11 or earlier (3.12's sum() is exact); 3.13 says
	// "do you need to open the file with newline=''?" instead.
	refErrNewline = refErrCSV + "new-line character seen in unquoted field - do you need to open the file in universal-newline mode?"
)

// ParseRef parses one text action by the sre_zero grammar, written to the
// SRE-Zero reference's quirks (spec §4.1–4.2), not the native participle
// grammar. Err is the reference's exact error message ("" when the text
// parsed); Canonical is the canonical form (§4.2), or the raw text when
// the text did not parse.
//
// The steps run in the reference's order, which decides which error wins:
// the call syntax, then the csv split of the arguments, then the action
// name, then the arity, then the empty-text checks of re-validation.
func ParseRef(text string) srezero.Action {
	name, argText, ok := splitRefCall(text)
	if !ok {
		return refError(text, refErrSyntax)
	}
	args, n, errMsg := splitRefArgs(argText)
	if errMsg != "" {
		return refError(text, errMsg)
	}
	a := srezero.Action{Type: name}
	switch name {
	case "inspect_logs", "inspect_metrics", "check_status", "restart_service":
		if n != 1 {
			return refError(text, name+" requires exactly one service argument.")
		}
		a.Service = args[0]
		a.Canonical = name + "(" + a.Service + ")"
	case "inspect_config":
		if n != 1 && n != 2 {
			return refError(text, "inspect_config requires service and optional key arguments.")
		}
		a.Service = args[0]
		if n == 2 {
			a.Key, a.HasKey = args[1], true
			a.Canonical = "inspect_config(" + a.Service + ", " + a.Key + ")"
		} else {
			a.Canonical = "inspect_config(" + a.Service + ")"
		}
	case "update_config":
		if n != 3 {
			return refError(text, "update_config requires service, key, and value arguments.")
		}
		a.Service, a.Key, a.HasKey = args[0], args[1], true
		a.Value = coerceRefValue(args[2])
		a.Canonical = "update_config(" + a.Service + ", " + a.Key + ", " + value.PyStr(a.Value) + ")"
	case "resolve_incident":
		if n != 2 {
			return refError(text, "resolve_incident requires root_cause and fix arguments.")
		}
		if args[0] == "" || args[1] == "" {
			return refError(text, "resolve_incident requires root_cause and fix.")
		}
		a.RootCause, a.Fix = args[0], args[1]
		a.Canonical = "resolve_incident(" + a.RootCause + ", " + a.Fix + ")"
	case "escalate":
		if n != 1 {
			return refError(text, "escalate requires one reason argument.")
		}
		if args[0] == "" {
			return refError(text, "escalate requires a reason.")
		}
		a.Reason = args[0]
		a.Canonical = "escalate(" + a.Reason + ")"
	default:
		return refError(text, "Unknown action: "+name)
	}
	return a
}

func refError(text, msg string) srezero.Action {
	return srezero.Action{Canonical: text, Err: msg}
}

// splitRefCall matches the reference's
// re.match(r"^\s*(?P<name>[a-zA-Z_][a-zA-Z0-9_]*)\s*\((?P<args>.*)\)\s*$").
// Only one way to match exists, so it needs no backtracking: the name ends
// at the first non-name byte; the closing ")" is the last non-whitespace
// character, since "\)\s*$" must follow the greedy args; and args may not
// hold "\n", which "." excludes. "$" also matching before a final "\n"
// changes nothing, because "\s*" already takes a trailing newline.
func splitRefCall(text string) (name, args string, ok bool) {
	i := len(text) - len(trimLeftPySpace(text))
	j := i
	for j < len(text) && (isNameStart(text[j]) || j > i && text[j] >= '0' && text[j] <= '9') {
		j++
	}
	if j == i {
		return "", "", false
	}
	open := len(text) - len(trimLeftPySpace(text[j:]))
	end := len(trimRightPySpace(text))
	if open >= len(text) || text[open] != '(' || end-1 <= open || text[end-1] != ')' {
		return "", "", false
	}
	args = text[open+1 : end-1]
	if strings.IndexByte(args, '\n') >= 0 {
		return "", "", false
	}
	return text[i:j], args, true
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func trimLeftPySpace(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if !value.IsPySpace(r) {
			break
		}
		s = s[size:]
	}
	return s
}

func trimRightPySpace(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !value.IsPySpace(r) {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}

// splitRefArgs is the reference's _split_args: whitespace-only text is no
// argument; otherwise next(csv.reader([text], skipinitialspace=True)), each
// field stripped and then unquoted once. It returns the first three
// arguments (no action takes more) and the count of all of them.
func splitRefArgs(text string) (args [3]string, n int, errMsg string) {
	if trimLeftPySpace(text) == "" {
		return args, 0, ""
	}
	n, errMsg = readCSVRecord(text, &args)
	for i := 0; i < n && i < len(args); i++ {
		args[i] = unquoteRef(trimRightPySpace(trimLeftPySpace(args[i])))
	}
	return args, n, errMsg
}

// unquoteRef drops one layer of matching quotes, ' or ", which the csv
// reader left on: a single-quoted field, or a double-quoted one with text
// after its closing quote.
func unquoteRef(s string) string {
	if len(s) >= 2 && s[0] == s[len(s)-1] && (s[0] == '"' || s[0] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// The states of CPython's _csv.c reader that the excel dialect reaches
// (no escapechar, so none of the escape states).
const (
	csvStartRecord = iota
	csvStartField
	csvInField
	csvInQuotedField
	csvQuoteInQuotedField
	csvEatCRNL
)

// readCSVRecord runs _csv.c's parse_process_char over text as the one line
// of input, with the excel dialect (delimiter ',', quotechar '"',
// doublequote, strict off) and skipinitialspace. It stores the first
// len(*out) fields, counts all of them, and returns csv.Error's message
// prefixed as the reference reports it.
//
// Non-strict reading never fails on quotes: a quote inside an unquoted
// field is kept, text after a closing quote joins the field, and an
// unterminated quoted field runs to the end of the text.
func readCSVRecord(text string, out *[3]string) (n int, errMsg string) {
	f := csvField{src: text}
	save := func() {
		if n < len(out) {
			out[n] = f.String()
		}
		n++
		f.reset()
	}
	state := csvStartRecord
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		add := false
		switch state {
		case csvStartRecord, csvStartField:
			switch {
			case c == '\n' || c == '\r':
				// A line break first thing ends the (empty) record
				// without a field.
				if state == csvStartField {
					save()
				}
				state = csvEatCRNL
			case c == '"':
				state = csvInQuotedField
			case c == ' ':
				state = csvStartField
			case c == ',':
				save()
				state = csvStartField
			default:
				add = true
				state = csvInField
			}
		case csvInField:
			switch c {
			case '\n', '\r':
				save()
				state = csvEatCRNL
			case ',':
				save()
				state = csvStartField
			default:
				add = true
			}
		case csvInQuotedField:
			if c == '"' {
				state = csvQuoteInQuotedField
			} else {
				add = true
			}
		case csvQuoteInQuotedField:
			switch c {
			case '"':
				add = true
				state = csvInQuotedField
			case ',':
				save()
				state = csvStartField
			case '\n', '\r':
				save()
				state = csvEatCRNL
			default:
				add = true
				state = csvInField
			}
		case csvEatCRNL:
			if c != '\n' && c != '\r' {
				return n, refErrNewline
			}
		}
		if add && !f.add(i, size) {
			return n, refErrFieldLimit
		}
		i += size
	}
	// End of line, then end of input: an open quoted field is kept as it
	// is, and any other unfinished field is saved too.
	if state != csvStartRecord && state != csvEatCRNL {
		save()
	}
	return n, ""
}

// csvField accumulates one field's characters. A field is usually a
// contiguous span of the source and is returned as a substring of it; it
// is copied only once the reader skips a character inside it (a closing
// or doubled quote).
type csvField struct {
	src        string
	start, end int
	buf        []byte
	copied     bool
	chars      int
}

// add appends src[i:i+size], one character, to the field; it reports false
// when the field already holds the csv module's limit of characters.
func (f *csvField) add(i, size int) bool {
	if f.chars >= refFieldLimit {
		return false
	}
	f.chars++
	switch {
	case f.copied:
		f.buf = append(f.buf, f.src[i:i+size]...)
	case f.start == f.end:
		f.start, f.end = i, i+size
	case i == f.end:
		f.end += size
	default:
		f.buf = append(append(f.buf[:0], f.src[f.start:f.end]...), f.src[i:i+size]...)
		f.copied = true
	}
	return true
}

func (f *csvField) String() string {
	if f.copied {
		return string(f.buf)
	}
	return f.src[f.start:f.end]
}

func (f *csvField) reset() {
	f.start, f.end, f.copied, f.chars = 0, 0, false, 0
}

// coerceRefValue is the reference's _coerce_value: "true"/"false" in any
// case, else int(), else float(), else the text itself.
func coerceRefValue(s string) value.Value {
	switch {
	case asciiLowerIs(s, "true"):
		return value.OfBool(true)
	case asciiLowerIs(s, "false"):
		return value.OfBool(false)
	}
	num := pyNumberText(s)
	if i, ok := value.ParsePyInt(num); ok {
		return value.OfInt(i)
	}
	if f, ok := value.ParsePyFloat(num); ok {
		return value.OfFloat(f)
	}
	return value.OfString(s)
}

// asciiLowerIs reports whether s.lower() == lower for an ASCII lower. Only
// ASCII letters lower-case to ASCII letters, so an ASCII fold is exact where
// strings.EqualFold is not (it folds "ſ" to "s" and "K" to "k").
func asciiLowerIs(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// pyNumberText does what int() and float() do to a str before reading it
// (CPython's _PyUnicode_TransformDecimalAndSpaceToASCII), so the ASCII-only
// value parsers accept what Python accepts: a non-ASCII space becomes " ",
// a non-ASCII decimal digit ("٣", "５") its ASCII digit, and anything else
// non-ASCII ends the text with an invalid "?".
func pyNumberText(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s)
	for _, r := range s[i:] {
		switch {
		case r < 0x7f:
			b = append(b, byte(r))
		case value.IsPySpace(r):
			b = append(b, ' ')
		case pyDecimal(r) >= 0:
			b = append(b, '0'+byte(pyDecimal(r)))
		default:
			return string(append(b, '?'))
		}
	}
	return string(b)
}

// pyDecimal is a decimal digit's value, or -1. Unicode assigns decimal
// digits only in runs of ten from 0 to 9, so the digit's place in its run
// gives its value.
func pyDecimal(r rune) int {
	if !unicode.Is(unicode.Nd, r) {
		return -1
	}
	d := 0
	for unicode.Is(unicode.Nd, r-rune(d)-1) {
		d++
	}
	return d % 10
}
