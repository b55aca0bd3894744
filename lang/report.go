package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// WriteText writes diagnostics as "FILE:LINE:COL: error: SUMMARY" with the
// detail and the source line under a caret, in the style of HCL.
func WriteText(w io.Writer, files []*File, ds Diagnostics) {
	byName := map[string]*File{}
	for _, f := range files {
		byName[f.Name] = f
	}
	for _, d := range ds {
		if d.Subject != nil {
			fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Severity, d.Summary)
		} else {
			fmt.Fprintf(w, "%s: %s\n", d.Severity, d.Summary)
		}
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", d.Detail)
		}
		if d.Subject != nil {
			if f := byName[d.Subject.Filename]; f != nil {
				writeSnippet(w, f.Src, *d.Subject)
			}
		}
		fmt.Fprintln(w)
	}
}

func writeSnippet(w io.Writer, src []byte, r Range) {
	if r.Start.Byte > len(src) || r.Start.Byte < 0 {
		return
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
	fmt.Fprintf(w, "  %4d | %s\n", r.Start.Line, strings.ReplaceAll(line, "\t", " "))
	fmt.Fprintf(w, "       | %s%s\n", strings.Repeat(" ", caret), strings.Repeat("^", width))
}

// WriteJSON writes diagnostics as a JSON array.
func WriteJSON(w io.Writer, ds Diagnostics) error {
	if ds == nil {
		ds = Diagnostics{}
	}
	b, err := json.MarshalIndent(ds, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
