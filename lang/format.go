package lang

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical layout: hclwrite's indentation, spacing
// and alignment, LF line endings and exactly one final newline. It changes
// only layout, never meaning.
//
// A file with syntax errors is not formatted: Format returns nil and the
// errors (filename names the file in them). Nor is a file that hclwrite
// would change beyond layout (it turns `0 .0` into `0.0`): Format checks
// that the tokens are the same before and after, and otherwise returns nil
// and an error at the first token that would change. Warnings, if any,
// come back with the formatted source.
//
// Line endings: a CRLF that ends a line, or that sits inside a comment,
// becomes LF (a comment's lines lose all their trailing CRs). CRLFs inside
// a heredoc are part of the string's value (HCL keeps the CR), so they,
// and the heredoc's opening line, are left alone; such a file keeps those
// CRLFs. Blank lines and spaces at the end of the file are dropped; an
// empty or all-blank file formats to nothing.
func Format(filename string, src []byte) ([]byte, Diagnostics) {
	// The syntax tree is analysis's, from its cache: an editor formats
	// the document it has just analysed.
	file := &File{Name: filename, Src: src}
	p, toks := parseCachedTokens(file)
	if p.over.HasErrors() {
		// The cache's diagnostics are shared: the caller gets copies.
		over := make(Diagnostics, len(p.over))
		for i, d := range p.over {
			c, r := *d, *d.Subject
			c.Subject = &r
			over[i] = &c
		}
		return nil, over.Sort()
	}
	diags := fromHCLDiags(p.diags)
	resyncPositions(diags, func(string) *File { return file })
	diags = diags.Sort().CapPerFile(MaxDiagnosticsPerFile)
	if diags.HasErrors() {
		return nil, diags
	}
	if toks == nil {
		// Parsing lexed the same bytes without error.
		toks, _ = hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	}
	if d := checkFormatWork(file); d != nil {
		return nil, diags.Append(d).Sort()
	}
	if !utf8.Valid(src) {
		// HCL reads some invalid bytes as part of a token and refuses
		// them once spacing changes ("=\xe5" parses, "= \xe5" does not),
		// so formatting could write a file that no longer parses.
		bad := invalidUTF8At(src)
		return nil, diags.Append(file.lines().diagnostic(filename, src, bad, bad+1, "Invalid character encoding",
			"All input files must be UTF-8 encoded; srezc fmt does not rewrite a file that is not.")).Sort()
	}
	out := hclwrite.Format(canonicalLines(src, toks))
	if len(out) > MaxFileBytes {
		d := file.lines().diagnostic(filename, src, 0, 0, "Formatted file too large",
			fmt.Sprintf("Formatted, the file would hold %d bytes, more than srezc reads (%d, MaxFileBytes). Split it into several files.", len(out), MaxFileBytes))
		return nil, diags.Append(d).Sort()
	}
	if d := checkSameTokens(toks, out); d != nil {
		return nil, diags.Append(d).Sort()
	}
	out = bytes.TrimRight(out, "\n")
	if len(out) == 0 {
		return []byte{}, diags
	}
	return append(out, '\n'), diags
}

// checkFormatWork bounds what hclwrite could write before it writes it.
// Indentation adds at most two spaces a level to each line, and aligning
// the equals signs and comments of a group of consecutive lines pads each
// to at most the group's widest line: the bound is each group's line count
// times its widest line plus the deepest indentation. 20,000 nested blocks
// in 120 KB used to format into 800 MB; such a file is refused by the
// nesting limit, and this bound refuses what the limits let through.
func checkFormatWork(f *File) *Diagnostic {
	src := f.Src
	total, groupLines, groupWidth, groupStart := len(src), 0, 0, 0
	flush := func() {
		total += groupLines * (groupWidth + 2*MaxNestingDepth + 1)
		groupLines, groupWidth = 0, 0
	}
	for start := 0; start <= len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if len(bytes.TrimSpace(src[start:end])) == 0 {
			flush()
		} else {
			if groupLines == 0 {
				groupStart = start
			}
			groupLines++
			groupWidth = max(groupWidth, end-start)
		}
		if total+groupLines*(groupWidth+2*MaxNestingDepth+1) > maxFormatWork {
			return f.lines().diagnostic(f.Name, src, groupStart, groupStart, "File too large to format",
				fmt.Sprintf("Aligning these lines could make the formatted file larger than %d bytes; srezc fmt does not try. Break up long lines or long groups of lines.", maxFormatWork))
		}
		start = end + 1
	}
	return nil
}

// canonicalLines turns CRLF into LF in newline and comment tokens, the only
// tokens where a line ending carries no meaning (a comment loses every CR
// that ends one of its lines), and cuts the file after the first newline
// that follows its last other token (a heredoc's closing marker needs
// one), dropping blank lines and spaces at the end.
func canonicalLines(src []byte, toks hclsyntax.Tokens) []byte {
	cut, seen := 0, false
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenEOF:
		case hclsyntax.TokenNewline:
			if !seen {
				cut, seen = t.Range.End.Byte, true
			}
		default:
			cut, seen = t.Range.End.Byte, false
		}
	}
	out := make([]byte, 0, cut)
	last := 0
	for _, t := range toks {
		start, end := t.Range.Start.Byte, t.Range.End.Byte
		if end > cut {
			break
		}
		out = append(out, src[last:start]...)
		switch t.Type {
		case hclsyntax.TokenNewline:
			out = append(out, '\n')
		case hclsyntax.TokenComment:
			out = append(out, trimLineCRs(src[start:end])...)
		default:
			out = append(out, src[start:end]...)
		}
		last = end
	}
	return out
}

// trimLineCRs drops the carriage returns that end each line of a comment
// (all of them: "\r\r\n" would otherwise become a new CRLF).
func trimLineCRs(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, "\r")
	}
	return bytes.Join(lines, []byte("\n"))
}

// checkSameTokens guards the promise that formatting changes only layout:
// hclwrite only respaces tokens, but removing a space can join two tokens
// into one (`0 .0` becomes the number `0.0`). It compares in, the source's
// tokens, with out's, and blames the first token that changed.
func checkSameTokens(in hclsyntax.Tokens, out []byte) *Diagnostic {
	got, ds := hclsyntax.LexConfig(out, "", hcl.InitialPos)
	a, b := layoutFree(in), layoutFree(got)
	i := 0
	for i < len(a) && i < len(b) && a[i].Type == b[i].Type && bytes.Equal(tokenText(a[i]), tokenText(b[i])) {
		i++
	}
	if i == len(a) && i == len(b) && !ds.HasErrors() {
		return nil
	}
	d := &Diagnostic{Severity: Error, Summary: "Formatting would change meaning"}
	if i < len(a) {
		r := fromHCL(a[i].Range)
		d.Subject = &r
		d.Detail = fmt.Sprintf("Formatting changes the token %q", tokenText(a[i]))
		if i < len(b) {
			d.Detail += fmt.Sprintf(" into %q", tokenText(b[i]))
		}
		d.Detail += ", which means something else. Write the expression so that no space is needed to keep its parts apart (with parentheses, say), then format again."
	} else if len(in) > 0 {
		r := fromHCL(in[len(in)-1].Range)
		d.Subject = &r
		d.Detail = "Formatting adds tokens at the end of the file."
	}
	return d
}

// layoutFree drops what formatting may change from a token list: the
// newlines and end marker that end the file.
func layoutFree(toks hclsyntax.Tokens) hclsyntax.Tokens {
	n := len(toks)
	for n > 0 && (toks[n-1].Type == hclsyntax.TokenEOF || toks[n-1].Type == hclsyntax.TokenNewline) {
		n--
	}
	return toks[:n]
}

// tokenText is a token's bytes with its line endings in canonical form.
func tokenText(t hclsyntax.Token) []byte {
	switch t.Type {
	case hclsyntax.TokenNewline:
		return []byte("\n")
	case hclsyntax.TokenComment:
		return trimLineCRs(t.Bytes)
	}
	return t.Bytes
}

// invalidUTF8At is the offset of src's first byte that is not valid UTF-8.
func invalidUTF8At(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(src)
}
