package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
	if r.Start.Byte > len(src) {
		return
	}
	lineStart := bytes.LastIndexByte(src[:r.Start.Byte], '\n') + 1
	lineEnd := bytes.IndexByte(src[lineStart:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += lineStart
	}
	line := string(src[lineStart:lineEnd])
	fmt.Fprintf(w, "  %4d | %s\n", r.Start.Line, strings.ReplaceAll(line, "\t", " "))
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	}
	fmt.Fprintf(w, "       | %s%s\n", strings.Repeat(" ", r.Start.Column-1), strings.Repeat("^", width))
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
