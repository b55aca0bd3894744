package lang

import (
	"bytes"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/apparentlymart/go-textseg/v15/textseg"
	"github.com/hashicorp/hcl/v2"
)

// posAt computes the position of a byte offset in src. Columns count
// grapheme clusters, as HCL's do, so that our ranges and HCL's agree.
func posAt(src []byte, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	col := 1
	seg := src[lineStart:off]
	if isASCII(seg) {
		// Every ASCII byte is a grapheme cluster of its own (the one
		// exception, CR LF, cannot occur: seg holds no LF).
		return Pos{Line: line, Column: col + len(seg), Byte: off}
	}
	for len(seg) > 0 {
		adv, _, err := textseg.ScanGraphemeClusters(seg, true)
		if err != nil || adv <= 0 {
			adv = 1
		}
		seg = seg[adv:]
		col++
	}
	return Pos{Line: line, Column: col, Byte: off}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func rangeOf(f *File, start, end int) Range {
	return Range{Filename: f.Name, Start: posAt(f.Src, start), End: posAt(f.Src, end)}
}

// resyncPositions recomputes every line and column from the byte offset.
// HCL's scanner can count an invalid UTF-8 sequence together with the
// newline after it as one character, so its line and column drift from
// the bytes; ours never do.
func resyncPositions(diags Diagnostics, src func(name string) []byte) {
	fix := func(r *Range) {
		if r == nil {
			return
		}
		b := src(r.Filename)
		if b == nil || r.Start.Byte < 0 || r.End.Byte > len(b) || r.Start.Byte > r.End.Byte {
			return
		}
		r.Start, r.End = posAt(b, r.Start.Byte), posAt(b, r.End.Byte)
	}
	for _, d := range diags {
		fix(d.Subject)
		fix(d.Related)
	}
}

func fromHCL(r hcl.Range) Range {
	return Range{
		Filename: r.Filename,
		Start:    Pos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      Pos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}

func fromHCLDiags(ds hcl.Diagnostics) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		nd := &Diagnostic{Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			nd.Severity = Warning
		}
		if d.Subject != nil {
			r := fromHCL(*d.Subject)
			nd.Subject = &r
		}
		out = append(out, nd)
	}
	return out
}

// suggest returns the candidate nearest to name, if it is near enough to be
// a likely misspelling. Candidates are sorted first so ties are stable.
func suggest(name string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 1<<30
	for _, c := range sorted {
		d := levenshtein.Distance(name, c, nil)
		if d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(name) >= 9 {
		limit = 3
	}
	if bestD <= limit {
		return best
	}
	return ""
}

func didYouMean(name string, candidates []string) string {
	if s := suggest(name, candidates); s != "" {
		return ` Did you mean "` + s + `"?`
	}
	return ""
}

// DidYouMean returns ` Did you mean "x"?` for the candidate nearest to name,
// or "" when none is near enough; commands use it for names on the command
// line as the checker does for names in source.
func DidYouMean(name string, candidates []string) string { return didYouMean(name, candidates) }
