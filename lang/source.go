package lang

import (
	"bytes"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/agext/levenshtein"
	"github.com/apparentlymart/go-textseg/v15/textseg"
	"github.com/hashicorp/hcl/v2"
)

// lineIndex maps byte offsets of one source to lines and columns in
// O(log n): the start of every line, and for the lines that hold non-ASCII
// bytes the start of every grapheme cluster. Columns count grapheme
// clusters, as HCL's do, so that our ranges and HCL's agree. Counting from
// the start of the file for each position was quadratic: 100,000 {holes}
// in one log template took 38 s.
//
// A line's clusters are found the first time a position on it is asked
// for: most lines of a file never are, and segmenting every non-ASCII
// line up front was a tenth of an analysis of a file with a few stray
// bytes.
type lineIndex struct {
	starts []int // byte offset of each line's first byte
	// mu guards clusters, which holds, for each line a position was asked
	// on, the offsets of its grapheme clusters' starts (nil for an ASCII
	// line). Indexes are shared by analyses that run at once.
	mu       sync.Mutex
	clusters map[int][]int
}

func newLineIndex(src []byte) *lineIndex {
	idx := &lineIndex{starts: make([]int, 1, 1+bytes.Count(src, newline))}
	for off := 0; ; {
		nl := bytes.IndexByte(src[off:], '\n')
		if nl < 0 {
			break
		}
		off += nl + 1
		idx.starts = append(idx.starts, off)
	}
	return idx
}

var newline = []byte{'\n'}

// lineClusters returns the grapheme clusters' starts of line (0-based) of
// src, nil when the line is ASCII.
func (idx *lineIndex) lineClusters(src []byte, line int) []int {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	if cs, ok := idx.clusters[line]; ok {
		return cs
	}
	start, end := idx.starts[line], len(src)
	if line+1 < len(idx.starts) {
		end = idx.starts[line+1] - 1
	}
	var cs []int
	if !isASCII(src[start:end]) {
		for off := start; off < end; {
			cs = append(cs, off)
			if off+1 < end && src[off] < utf8.RuneSelf && src[off+1] < utf8.RuneSelf {
				// Two ASCII bytes of a line have a cluster boundary
				// between them: only CR LF (never in one line) and a
				// non-ASCII mark after a character make one cluster.
				off++
				continue
			}
			adv, _, err := textseg.ScanGraphemeClusters(src[off:end], true)
			if err != nil || adv <= 0 {
				adv = 1
			}
			off += adv
		}
	}
	if idx.clusters == nil {
		idx.clusters = map[int][]int{}
	}
	idx.clusters[line] = cs
	return cs
}

// pos is the position of byte offset off of src, the source the index was
// built from.
func (idx *lineIndex) pos(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	line := sort.Search(len(idx.starts), func(i int) bool { return idx.starts[i] > off }) - 1
	start := idx.starts[line]
	cs := idx.lineClusters(src, line)
	if cs == nil {
		// Every ASCII byte is a grapheme cluster of its own (the one
		// exception, CR LF, cannot occur: a line holds no LF).
		return Pos{Line: line + 1, Column: 1 + off - start, Byte: off}
	}
	// A cluster that starts before off counts, even when off cuts it.
	n := sort.SearchInts(cs, off)
	return Pos{Line: line + 1, Column: 1 + n, Byte: off}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// lines returns f's line index, built on first use. Files are shared
// between analyses that may run at once (the language server's), so the
// index is built and published under a lock; it is kept with the source
// it was built from, so a copy of a File given other source gets its own.
func (f *File) lines() *lineIndex {
	indexMu.Lock()
	defer indexMu.Unlock()
	if x := f.index; x != nil && len(x.src) == len(f.Src) && (len(f.Src) == 0 || &x.src[0] == &f.Src[0]) {
		return x.lineIndex
	}
	f.index = &fileIndex{lineIndex: newLineIndex(f.Src), src: f.Src}
	return f.index.lineIndex
}

var indexMu sync.Mutex

// fileIndex is a line index and the source it indexes.
type fileIndex struct {
	*lineIndex
	src []byte
}

func rangeOf(f *File, start, end int) Range {
	idx := f.lines()
	return Range{Filename: f.Name, Start: idx.pos(f.Src, start), End: idx.pos(f.Src, end)}
}

// resyncPositions recomputes every line and column from the byte offset.
// HCL's scanner can count an invalid UTF-8 sequence together with the
// newline after it as one character, so its line and column drift from
// the bytes; ours never do.
func resyncPositions(diags Diagnostics, file func(name string) *File) {
	fix := func(r *Range) {
		if r == nil {
			return
		}
		f := file(r.Filename)
		if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.Src) || r.Start.Byte > r.End.Byte {
			return
		}
		idx := f.lines()
		r.Start, r.End = idx.pos(f.Src, r.Start.Byte), idx.pos(f.Src, r.End.Byte)
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
// a likely misspelling; of equally near ones, the first in sorted order.
func suggest(name string, candidates []string) string {
	limit := 2
	if len(name) >= 9 {
		limit = 3
	}
	// A distance is at least the difference in length, so a candidate
	// whose length differs by more than could still win is skipped, and
	// no candidate list is copied and sorted: suggestions were 3% of the
	// time FuzzAnalyze spent on an input. (levenshtein's
	// own MaxCost cut-off panics on some pairs: v1.2.1, "_abéxé" and
	// "_bc日cb" at 2.)
	best, bestD := "", limit+1
	runes := utf8.RuneCountInString(name)
	for _, c := range candidates {
		if abs(utf8.RuneCountInString(c)-runes) > min(limit, bestD) {
			continue
		}
		d := levenshtein.Distance(name, c, nil)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD <= limit {
		return best
	}
	return ""
}

func abs(n int) int { return max(n, -n) }

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
