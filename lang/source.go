package lang

import (
	"sort"
	"sync"

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
type lineIndex struct {
	starts []int // byte offset of each line's first byte
	// clusters holds, for each line with a non-ASCII byte, the offsets of
	// its grapheme clusters' starts; ASCII lines have none.
	clusters map[int][]int
}

func newLineIndex(src []byte) *lineIndex {
	idx := &lineIndex{starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			idx.starts = append(idx.starts, i+1)
		}
	}
	for line, start := range idx.starts {
		end := len(src)
		if line+1 < len(idx.starts) {
			end = idx.starts[line+1] - 1
		}
		seg := src[start:end]
		if isASCII(seg) {
			continue
		}
		if idx.clusters == nil {
			idx.clusters = map[int][]int{}
		}
		var cs []int
		for off := start; off < end; {
			cs = append(cs, off)
			adv, _, err := textseg.ScanGraphemeClusters(src[off:end], true)
			if err != nil || adv <= 0 {
				adv = 1
			}
			off += adv
		}
		idx.clusters[line] = cs
	}
	return idx
}

// pos is the position of byte offset off of src, the source the index was
// built from.
func (idx *lineIndex) pos(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	line := sort.Search(len(idx.starts), func(i int) bool { return idx.starts[i] > off }) - 1
	start := idx.starts[line]
	cs, ok := idx.clusters[line]
	if !ok {
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
