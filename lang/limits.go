package lang

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits on what the front end reads. HCL's parser, its evaluator and
// hclwrite recurse once per level of nesting and cost more than linear
// time on some shapes (a long number literal is parsed as a big float), so
// a file is measured before it is parsed, by one pass over its bytes that
// clears it (withinLimits) or else by one pass of HCL's lexer; neither
// recurses. A file over any limit is not parsed at all: it gets
// one located error per excess and nothing from it is decoded, so it can
// neither crash nor stall a command or the language server, and the files
// beside it are analysed as usual.
const (
	// MaxFileBytes is the largest source file read; the largest shipped
	// file is under 20 KB.
	MaxFileBytes = 1 << 20
	// MaxNestingDepth bounds how deeply syntax nests: blocks, brackets,
	// strings and their ${…} and %{…} parts, and the operators chained in
	// one expression (each unary, binary or conditional operator deepens
	// HCL's tree by one until the next comma or line).
	MaxNestingDepth = 64
	// MaxNumberLiteralBytes bounds a number literal.
	MaxNumberLiteralBytes = 100
	// MaxStringBytes bounds the literal text of one quoted string or
	// heredoc: an alert, a description, a log template, an expression.
	MaxStringBytes = 16 << 10
	// MaxNameBytes bounds an identifier and a declaration's name (its
	// block label): an incident id, a fault kind, a key.
	MaxNameBytes = 128
	// MaxDiagnosticsPerFile is how many diagnostics one file reports; a
	// last one says how many more were found.
	MaxDiagnosticsPerFile = 100
	// MaxSnippetBytes is how much of a source line a text diagnostic
	// shows, in a window around the caret.
	MaxSnippetBytes = 400
)

// maxFormatWork bounds the worst case of the layout srezc fmt computes
// before it computes it: indentation and alignment can add a long line's
// width to every line of its group.
const maxFormatWork = 64 << 20

// checkLimits measures src against the limits above and returns an error
// for each excess: the file's size, each too long literal or name, and the
// first place nesting gets too deep.
func checkLimits(name string, src []byte) Diagnostics {
	diags, _ := measure(name, src)
	return diags
}

// measure is checkLimits that also returns the tokens it measured (nil
// for a file over MaxFileBytes, which is not lexed, and for one that
// withinLimits clears without lexing): the lexer is the front end's most
// expensive pass, so a caller that needs the tokens too takes these rather
// than lexing the file again.
func measure(name string, src []byte) (Diagnostics, hclsyntax.Tokens) {
	if len(src) > MaxFileBytes {
		return Diagnostics{newLineIndex(src[:MaxFileBytes]).diagnostic(name, src, MaxFileBytes, MaxFileBytes, "File too large",
			fmt.Sprintf("The file holds more than %d bytes (MaxFileBytes), the most srezc reads. Split it into several files.", MaxFileBytes))}, nil
	}
	if withinLimits(src) {
		return nil, nil
	}
	return measureTokens(name, src)
}

// measureTokens is measure by HCL's lexer, for a file of at most
// MaxFileBytes.
func measureTokens(name string, src []byte) (Diagnostics, hclsyntax.Tokens) {
	toks, _ := hclsyntax.LexConfig(src, name, hcl.InitialPos)
	var diags Diagnostics
	var idx *lineIndex
	limitError := func(start, end int, summary, detail string) *Diagnostic {
		if idx == nil {
			idx = newLineIndex(src)
		}
		return idx.diagnostic(name, src, start, end, summary, detail)
	}
	n := nesting{}
	deep := false
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenNumberLit:
			if len(t.Bytes) > MaxNumberLiteralBytes {
				diags = append(diags, limitError(t.Range.Start.Byte, t.Range.End.Byte, "Number literal too long",
					fmt.Sprintf("This number is written with %d characters; srezc reads at most %d (MaxNumberLiteralBytes).", len(t.Bytes), MaxNumberLiteralBytes)))
			}
		case hclsyntax.TokenIdent:
			if len(t.Bytes) > MaxNameBytes {
				diags = append(diags, limitError(t.Range.Start.Byte, t.Range.End.Byte, "Name too long",
					fmt.Sprintf("This name is %d bytes long; names have at most %d bytes (MaxNameBytes).", len(t.Bytes), MaxNameBytes)))
			}
		}
		if d := n.stringToken(t); d > MaxStringBytes && !n.reported {
			n.reported = true
			start := n.strings[len(n.strings)-1]
			diags = append(diags, limitError(start.Start.Byte, start.End.Byte, "String too long",
				fmt.Sprintf("This string holds more than %d bytes of text (MaxStringBytes).", MaxStringBytes)))
		}
		if n.step(toks, i) > MaxNestingDepth && !deep {
			deep = true
			diags = append(diags, limitError(t.Range.Start.Byte, t.Range.End.Byte, "Nesting too deep",
				fmt.Sprintf("Blocks, brackets, strings and the operators of one expression nest here more than %d levels deep (MaxNestingDepth).", MaxNestingDepth)))
		}
	}
	return diags, toks
}

// withinLimits reports, without lexing src, that it is within every limit
// above, so that measure need not lex it: HCL's lexer is most of the front
// end's cost (it segments every token into graphemes to count columns),
// and the parser lexes the file again anyway. It is one pass over the
// bytes that follows HCL's lexer through code, quoted strings and line
// comments, and gives up (false) on a file holding a sequence whose lexing
// it does not follow: ${, %{, a heredoc's <<, a /* comment, and a byte
// from 0xC2 to 0xF3 in code (outside strings and comments) followed,
// within three bytes, by one that is not a nameByte. It may refuse
// a file within the limits (measure then decides), never clear one over
// them:
//
//   - every name and number literal is a run of nameBytes in code, so
//     runs of at most MaxNumberLiteralBytes (< MaxNameBytes) bound both;
//   - a quoted string's text lies between its quotes (a quote after an odd
//     run of backslashes is escaped, as HCL's lexer reads it);
//   - nesting is measure's own count (stepType), fed the same brackets,
//     braces, quotes, commas and newlines as HCL's tokens give it (a
//     comment takes its newline, "~}" is not a brace) and an operator for
//     the first byte of every operator token (each byte of ! - ? + * % < >
//     & | and a = followed by =), which counts some twice (&&, !=, ===)
//     and some bytes HCL reads otherwise (the '-' of 1e-5, the '>' of =>,
//     a lone '&'); an extra operator only deepens the count until the same
//     comma, newline or closer resets it.
//
// FuzzWithinLimits checks that a file it clears has no excess.
func withinLimits(src []byte) bool {
	if len(src) > MaxFileBytes {
		return false
	}
	for _, s := range unfollowedSequences {
		if bytes.Contains(src, s) {
			return false
		}
	}
	var n nesting
	run := 0       // the nameBytes before i, in code
	ident := false // src[i-run:i] is (the start of) an identifier
	taken := 0     // src[i:taken] may be taken into a name by a lead byte before i
	for i := 0; i < len(src); i++ {
		c := src[i]
		if 0xC2 <= c && c <= 0xF3 {
			// HCL's identifier machine reads a multi-byte character as
			// its first byte (0xC2 to 0xF3) and any three after it
			// ("\xc9}" is a name, not a brace; "\xc9 " a name with a
			// space). Any other byte outside ASCII is a token of its own.
			for k := i + 1; k < min(i+4, len(src)); k++ {
				if !takeable[src[k]] {
					return false
				}
			}
			taken = max(taken, i+4)
		}
		if i < taken && !nameByte[c] {
			// Read either way, a takeable byte only lengthens the name
			// (it counts in the run) or adds an operator; it closes and
			// resets nothing.
			run++
			if run > MaxNumberLiteralBytes {
				return false
			}
			ident = false
			switch byteKind[c] {
			case kindOp:
				if n.stepType(hclsyntax.TokenPlus, "") > MaxNestingDepth {
					return false
				}
			case kindEquals:
				if i+1 < len(src) && src[i+1] == '=' && n.stepType(hclsyntax.TokenEqualOp, "") > MaxNestingDepth {
					return false
				}
			}
			continue
		}
		if nameByte[c] {
			run++
			if run > MaxNumberLiteralBytes {
				return false
			}
			// HCL's longest match reads a run that starts with a
			// letter or '_' as one identifier, '-' included.
			ident = (run == 1 && identStart[c]) || (ident && identContinue[c])
			// '+' and '-' may be operators (HCL reads the '+' of 1e+5
			// and the '-' of 1-2 otherwise, but counting them is safe).
			if (c != '-' && c != '+') || ident {
				continue
			}
		} else {
			run, ident = 0, false
		}
		depth := 0
		switch byteKind[c] {
		case kindNone:
			continue
		case kindOpen, kindClose:
			ty := bracketTokens[c]
			if c == '}' && i > 0 && src[i-1] == '~' {
				ty = hclsyntax.TokenTemplateSeqEnd
			}
			depth = n.stepType(ty, "")
		case kindQuote:
			if n.stepType(hclsyntax.TokenOQuote, "") > MaxNestingDepth {
				return false
			}
			end := closingQuote(src, i+1)
			if end-(i+1) > MaxStringBytes {
				return false
			}
			if end == len(src) {
				return true // the string runs to the end, unclosed
			}
			depth = n.stepType(hclsyntax.TokenCQuote, "")
			i = end
		case kindComment:
			if c == '/' && (i+1 == len(src) || src[i+1] != '/') {
				depth = n.stepType(hclsyntax.TokenSlash, "")
				break
			}
			// The comment takes its newline: no TokenNewline.
			nl := bytes.IndexByte(src[i:], '\n')
			if nl < 0 {
				return true
			}
			i += nl
		case kindComma:
			depth = n.stepType(hclsyntax.TokenComma, "")
		case kindNewline:
			depth = n.stepType(hclsyntax.TokenNewline, "")
		case kindOp:
			depth = n.stepType(hclsyntax.TokenPlus, "")
		case kindEquals:
			if i+1 < len(src) && src[i+1] == '=' {
				depth = n.stepType(hclsyntax.TokenEqualOp, "")
			}
		}
		if depth > MaxNestingDepth {
			return false
		}
	}
	return true
}

// closingQuote returns the index of the quote that closes a quoted string
// whose text starts at from, or len(src).
func closingQuote(src []byte, from int) int {
	for from < len(src) {
		q := bytes.IndexByte(src[from:], '"')
		if q < 0 {
			return len(src)
		}
		q += from
		backslashes := 0
		for k := q - 1; k >= from && src[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		from = q + 1
	}
	return len(src)
}

// unfollowedSequences open what withinLimits does not follow: template
// sequences, heredocs and block comments.
var unfollowedSequences = [][]byte{[]byte("${"), []byte("%{"), []byte("<<"), []byte("/*")}

const (
	kindNone = iota
	kindOpen
	kindClose
	kindQuote
	kindComment // # and /, which may start one
	kindComma
	kindNewline
	kindOp     // the first byte of every operator but ==
	kindEquals // =, the first byte of == when doubled
)

var (
	// nameByte holds what a name or a number literal is made of: ASCII
	// letters, digits, '_', '-', '.' (a fraction) and '+' (an exponent),
	// and every byte outside ASCII.
	nameByte [256]bool
	// identStart and identContinue are the ASCII bytes that start and
	// continue an identifier.
	identStart, identContinue [256]bool
	// takeable holds the bytes withinLimits follows after a lead byte
	// (0xC2 to 0xF3) whether HCL's lexer takes them into a name or not:
	// nameBytes, blanks, operators, commas, newlines and the other bytes
	// that open or close nothing. Brackets, quotes, comment starts and
	// '~' (of "~}") are not.
	takeable      [256]bool
	byteKind      [256]uint8
	bracketTokens [256]hclsyntax.TokenType
)

func init() {
	for c := 0; c < 256; c++ {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		digit := '0' <= c && c <= '9'
		identStart[c] = letter || c == '_'
		identContinue[c] = letter || digit || c == '_' || c == '-'
		nameByte[c] = identContinue[c] || c == '.' || c == '+' || c >= utf8.RuneSelf
	}
	for _, c := range []byte("{[(") {
		byteKind[c] = kindOpen
	}
	for _, c := range []byte("}])") {
		byteKind[c] = kindClose
	}
	bracketTokens['{'], bracketTokens['}'] = hclsyntax.TokenOBrace, hclsyntax.TokenCBrace
	bracketTokens['['], bracketTokens[']'] = hclsyntax.TokenOBrack, hclsyntax.TokenCBrack
	bracketTokens['('], bracketTokens[')'] = hclsyntax.TokenOParen, hclsyntax.TokenCParen
	byteKind['"'] = kindQuote
	byteKind['#'], byteKind['/'] = kindComment, kindComment
	byteKind[','] = kindComma
	byteKind['\n'] = kindNewline
	for _, c := range []byte("!-?+*%<>&|") {
		byteKind[c] = kindOp
	}
	byteKind['='] = kindEquals
	for c := 0; c < 256; c++ {
		switch byteKind[c] {
		case kindOpen, kindClose, kindQuote, kindComment:
		default:
			takeable[c] = c != '~'
		}
	}
}

func (idx *lineIndex) diagnostic(name string, src []byte, start, end int, summary, detail string) *Diagnostic {
	r := Range{Filename: name, Start: idx.pos(src, start), End: idx.pos(src, end)}
	return &Diagnostic{Severity: Error, Summary: summary, Detail: detail, Subject: &r}
}

// nesting follows how deeply HCL's parser will recurse, token by token.
// Each open level (a block or object brace, a bracket, a parenthesis, a
// string, a template sequence, an if or for directive's body) counts one,
// and each operator counts one more until the next comma or, in a body or
// object, the next line, since HCL nests an operator's operands.
type nesting struct {
	levels []level
	ops    int // operators counted on all open levels
	topOps int // operators outside any level
	// strings are the opening tokens of the open strings; text counts the
	// literal bytes of the innermost.
	strings  []hcl.Range
	text     []int
	reported bool
}

type level struct {
	closer hclsyntax.TokenType
	ops    int
	// directive marks the body of an if or for directive, closed by the
	// endif or endfor that follows.
	directive bool
	// opensDirective marks a %{ if } or %{ for } sequence: its body
	// opens when the sequence closes.
	opensDirective bool
}

func (n *nesting) depth() int { return len(n.levels) + n.ops + n.topOps }

func (n *nesting) push(l level) { n.levels = append(n.levels, l) }

func (n *nesting) pop() level {
	l := n.levels[len(n.levels)-1]
	n.levels = n.levels[:len(n.levels)-1]
	n.ops -= l.ops
	return l
}

func (n *nesting) resetOps() {
	if len(n.levels) == 0 {
		n.topOps = 0
		return
	}
	top := &n.levels[len(n.levels)-1]
	n.ops -= top.ops
	top.ops = 0
}

func (n *nesting) addOp() {
	if len(n.levels) == 0 {
		n.topOps++
		return
	}
	n.levels[len(n.levels)-1].ops++
	n.ops++
}

// step accounts for toks[i] and returns the depth it reaches.
func (n *nesting) step(toks hclsyntax.Tokens, i int) int {
	kw := ""
	if toks[i].Type == hclsyntax.TokenTemplateControl && i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenIdent {
		kw = string(toks[i+1].Bytes)
	}
	return n.stepType(toks[i].Type, kw)
}

// stepType accounts for a token of type ty (kw is the keyword that
// follows a template control sequence's opening) and returns the depth it
// reaches.
func (n *nesting) stepType(ty hclsyntax.TokenType, kw string) int {
	switch ty {
	case hclsyntax.TokenOBrace:
		n.push(level{closer: hclsyntax.TokenCBrace})
	case hclsyntax.TokenOBrack:
		n.addOp() // an index nests the collection it applies to
		n.push(level{closer: hclsyntax.TokenCBrack})
	case hclsyntax.TokenOParen:
		n.addOp()
		n.push(level{closer: hclsyntax.TokenCParen})
	case hclsyntax.TokenOQuote:
		n.push(level{closer: hclsyntax.TokenCQuote})
	case hclsyntax.TokenOHeredoc:
		n.push(level{closer: hclsyntax.TokenCHeredoc})
	case hclsyntax.TokenTemplateInterp:
		n.push(level{closer: hclsyntax.TokenTemplateSeqEnd})
	case hclsyntax.TokenTemplateControl:
		if (kw == "endif" || kw == "endfor" || kw == "else") && len(n.levels) > 0 && n.levels[len(n.levels)-1].directive {
			n.pop()
		}
		n.push(level{closer: hclsyntax.TokenTemplateSeqEnd, opensDirective: kw == "if" || kw == "for" || kw == "else"})
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
		hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
		// Unbalanced input: close up to the matching opener, if any.
		for k := len(n.levels) - 1; k >= 0; k-- {
			if n.levels[k].closer == ty {
				var l level
				for len(n.levels) > k {
					l = n.pop()
				}
				if l.opensDirective {
					n.push(level{directive: true, closer: hclsyntax.TokenNil})
				}
				break
			}
		}
	case hclsyntax.TokenComma:
		n.resetOps()
	case hclsyntax.TokenNewline:
		if len(n.levels) == 0 || n.levels[len(n.levels)-1].closer == hclsyntax.TokenCBrace {
			n.resetOps()
		}
	case hclsyntax.TokenBang, hclsyntax.TokenMinus, hclsyntax.TokenQuestion,
		hclsyntax.TokenPlus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
		hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
		hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq:
		n.addOp()
	}
	return n.depth()
}

// stringToken follows the open strings and returns the literal bytes of
// the innermost one so far.
func (n *nesting) stringToken(t hclsyntax.Token) int {
	switch t.Type {
	case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
		n.strings = append(n.strings, t.Range)
		n.text = append(n.text, 0)
		n.reported = false
	case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
		if len(n.strings) > 0 {
			n.strings = n.strings[:len(n.strings)-1]
			n.text = n.text[:len(n.text)-1]
		}
	case hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit:
		if len(n.text) > 0 {
			n.text[len(n.text)-1] += len(t.Bytes)
			return n.text[len(n.text)-1]
		}
	}
	return 0
}
