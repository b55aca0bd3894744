package lang

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// WriteText writes diagnostics as "FILE:LINE:COL: error: SUMMARY" with the
// detail and the source line under a caret, in the style of HCL. It
// writes once, so an unbuffered writer is not written line by line.
func WriteText(w io.Writer, files []*File, ds Diagnostics) {
	byName := make(map[string]*File, len(files))
	for _, f := range files {
		byName[f.Name] = f
	}
	var b []byte
	for _, d := range ds {
		if d.Subject != nil {
			b = append(b, d.Subject.Filename...)
			b = strconv.AppendInt(append(b, ':'), int64(d.Subject.Start.Line), 10)
			b = strconv.AppendInt(append(b, ':'), int64(d.Subject.Start.Column), 10)
			b = append(b, ": "...)
		}
		b = append(append(append(b, d.Severity.String()...), ": "...), d.Summary...)
		b = append(b, '\n')
		if d.Detail != "" {
			b = append(append(append(b, "  "...), d.Detail...), '\n')
		}
		if d.Subject != nil {
			if f := byName[d.Subject.Filename]; f != nil {
				b = appendSnippet(b, f.Src, *d.Subject)
			}
		}
		b = append(b, '\n')
	}
	if len(b) > 0 {
		w.Write(b)
	}
}

func appendSnippet(b []byte, src []byte, r Range) []byte {
	if r.Start.Byte > len(src) || r.Start.Byte < 0 {
		return b
	}
	lineStart := bytes.LastIndexByte(src[:r.Start.Byte], '\n') + 1
	lineEnd := bytes.IndexByte(src[lineStart:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += lineStart
	}
	caret := r.Start.Column - 1
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	}
	line := string(src[lineStart:lineEnd])
	if len(line) > MaxSnippetBytes {
		// Show a window of the line around the caret, cut at rune
		// boundaries and marked with ellipses, so a 2 MB line is not
		// echoed whole.
		from := max(lineStart, r.Start.Byte-MaxSnippetBytes/4)
		for from > lineStart && !utf8.RuneStart(src[from]) {
			from--
		}
		to := min(lineEnd, from+MaxSnippetBytes)
		// Stray continuation bytes (invalid UTF-8) have no rune start
		// to back up to: stop at from rather than pass it.
		for to > from && to < lineEnd && !utf8.RuneStart(src[to]) {
			to--
		}
		prefix, suffix := "", ""
		if from > lineStart {
			prefix = "…"
		}
		if to < lineEnd {
			suffix = "…"
		}
		line = prefix + string(src[from:to]) + suffix
		n, err := textseg.TokenCount(src[from:r.Start.Byte], textseg.ScanGraphemeClusters)
		if err != nil {
			n = utf8.RuneCount(src[from:r.Start.Byte])
		}
		caret = utf8.RuneCountInString(prefix) + n
		width = min(width, max(1, utf8.RuneCountInString(line)-caret))
	}
	num := strconv.Itoa(r.Start.Line) // as %4d writes it
	b = append(append(b, "  "...), strings.Repeat(" ", max(0, 4-len(num)))...)
	b = append(append(append(b, num...), " | "...), strings.ReplaceAll(line, "\t", " ")...)
	b = append(append(b, "\n       | "...), strings.Repeat(" ", caret)...)
	return append(append(b, strings.Repeat("^", width)...), '\n')
}

// WriteJSON writes diagnostics as a JSON array, the bytes
// json.MarshalIndent(ds, "", "  ") gives. It writes the indented form
// directly: MarshalIndent marshals, then re-scans every byte to indent,
// and that second pass cost more than the first (a tenth of the time
// FuzzAnalyze spent on an input). Strings are still escaped by
// encoding/json.
func WriteJSON(w io.Writer, ds Diagnostics) error {
	b := []byte{'['}
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		var err error
		if b, err = appendDiagnosticJSON(b, d); err != nil {
			return err
		}
	}
	if len(ds) > 0 {
		b = append(b, '\n')
	}
	_, err := w.Write(append(b, "]\n"...))
	return err
}

// appendDiagnosticJSON appends d as an object one level into the array.
func appendDiagnosticJSON(b []byte, d *Diagnostic) ([]byte, error) {
	if d == nil {
		return append(b, "null"...), nil
	}
	const in = "\n    "
	b = append(b, "{"+in+`"severity": `...)
	b, err := appendJSONString(b, d.Severity.String())
	if err != nil {
		return nil, err
	}
	b = append(b, ","+in+`"summary": `...)
	if b, err = appendJSONString(b, d.Summary); err != nil {
		return nil, err
	}
	if d.Detail != "" {
		b = append(b, ","+in+`"detail": `...)
		if b, err = appendJSONString(b, d.Detail); err != nil {
			return nil, err
		}
	}
	for _, r := range []struct {
		key string
		r   *Range
	}{{"range", d.Subject}, {"related", d.Related}} {
		if r.r == nil {
			continue
		}
		b = append(b, ","+in+`"`+r.key+`": {`+in+`  "filename": `...)
		if b, err = appendJSONString(b, r.r.Filename); err != nil {
			return nil, err
		}
		b = appendPosJSON(append(b, ","+in+`  "start": `...), r.r.Start)
		b = appendPosJSON(append(b, ","+in+`  "end": `...), r.r.End)
		b = append(b, in+"}"...)
	}
	return append(b, "\n  }"...), nil
}

// appendPosJSON appends p as an object three levels in.
func appendPosJSON(b []byte, p Pos) []byte {
	const in = "\n        "
	b = strconv.AppendInt(append(b, "{"+in+`"line": `...), int64(p.Line), 10)
	b = strconv.AppendInt(append(b, ","+in+`"column": `...), int64(p.Column), 10)
	b = strconv.AppendInt(append(b, ","+in+`"byte": `...), int64(p.Byte), 10)
	return append(b, "\n      }"...)
}

// appendJSONString appends s as encoding/json writes a string (HTML
// characters escaped, invalid UTF-8 replaced): directly when it is
// printable ASCII without <, > or &, else as json.Marshal writes it.
func appendJSONString(b []byte, s string) ([]byte, error) {
	quote := len(b)
	b = append(b, '"')
	from := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case plainJSON[c]:
		case c == '"' || c == '\\':
			b = append(append(b, s[from:i]...), '\\', c)
			from = i + 1
		default:
			q, err := json.Marshal(s)
			return append(b[:quote], q...), err
		}
	}
	return append(append(b, s[from:]...), '"'), nil
}

// plainJSON holds the bytes encoding/json writes as they are in a string:
// printable ASCII but the quote, the backslash and <, > and &.
var plainJSON = func() (t [256]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, c)
	}
	return t
}()
