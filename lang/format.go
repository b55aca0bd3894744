package lang

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical layout: hclwrite's indentation, spacing
// and alignment, LF line endings and exactly one final newline. It changes
// only whitespace and comments' line endings, never meaning.
//
// A file with syntax errors is not formatted: Format returns nil and the
// errors (filename names the file in them). Warnings, if any, come back
// with the formatted source.
//
// Line endings: a CRLF that ends a line, or that sits inside a comment,
// becomes LF (and a comment's lines lose their trailing CRs). CRLFs inside a heredoc are part of the string's value (HCL
// keeps the CR), so they, and the heredoc's opening line, are left alone;
// such a file keeps those CRLFs. Blank lines and spaces at the end of the
// file are dropped; an empty or all-blank file formats to nothing.
func Format(filename string, src []byte) ([]byte, Diagnostics) {
	_, ds := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	diags := fromHCLDiags(ds).Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	toks, ds := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if ds.HasErrors() {
		return nil, fromHCLDiags(ds).Sort()
	}
	out := bytes.TrimRight(hclwrite.Format(canonicalLines(src, toks)), "\n")
	if len(out) == 0 {
		return []byte{}, diags
	}
	return append(out, '\n'), diags
}

// canonicalLines turns CRLF into LF in newline and comment tokens, the only
// tokens where a line ending carries no meaning (a comment loses every CR
// that ends one of its lines), and cuts the file after
// the first newline after its last other token (a heredoc's closing
// marker needs it), dropping blank lines and spaces at the end.
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
