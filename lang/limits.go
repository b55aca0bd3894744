package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits on what the front end reads. HCL's parser, its evaluator and
// hclwrite recurse once per level of nesting and cost more than linear
// time on some shapes (a long number literal is parsed as a big float), so
// a file is measured by one pass of HCL's lexer, which keeps no recursion,
// before it is parsed. A file over any limit is not parsed at all: it gets
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
// for a file over MaxFileBytes, which is not lexed): the lexer is the
// front end's most expensive pass, so a caller that needs the tokens too
// takes these rather than lexing the file again.
func measure(name string, src []byte) (Diagnostics, hclsyntax.Tokens) {
	if len(src) > MaxFileBytes {
		return Diagnostics{newLineIndex(src[:MaxFileBytes]).diagnostic(name, src, MaxFileBytes, MaxFileBytes, "File too large",
			fmt.Sprintf("The file holds more than %d bytes (MaxFileBytes), the most srezc reads. Split it into several files.", MaxFileBytes))}, nil
	}
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
	t := toks[i]
	switch t.Type {
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
		kw := ""
		if i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenIdent {
			kw = string(toks[i+1].Bytes)
		}
		if (kw == "endif" || kw == "endfor" || kw == "else") && len(n.levels) > 0 && n.levels[len(n.levels)-1].directive {
			n.pop()
		}
		n.push(level{closer: hclsyntax.TokenTemplateSeqEnd, opensDirective: kw == "if" || kw == "for" || kw == "else"})
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
		hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
		// Unbalanced input: close up to the matching opener, if any.
		for k := len(n.levels) - 1; k >= 0; k-- {
			if n.levels[k].closer == t.Type {
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
