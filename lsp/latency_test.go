package lsp

import (
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/srezc/srezc/lang"
)

// thousandLines is a 1,000-line module: shipped incidents concatenated.
func thousandLines(tb testing.TB) string {
	var b strings.Builder
	lines := 0
	for _, f := range lang.ScenarioFiles() {
		if lines >= 1000 {
			break
		}
		b.Write(f.Src)
		b.WriteByte('\n')
		lines += strings.Count(string(f.Src), "\n") + 1
	}
	return b.String()
}

// p95 runs f n times and reports the 95th percentile.
func p95(b *testing.B, name string, n int, f func(i int)) {
	d := make([]time.Duration, n)
	for i := range d {
		start := time.Now()
		f(i)
		d[i] = time.Since(start)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[n*95/100].Microseconds())/1000, name+"-p95-ms")
}

// BenchmarkLatency measures, on a 1,000-line module, the analysis behind
// diagnostics after an edit, and completion and hover (which read the last
// analysis and the document's current text).
func BenchmarkLatency(b *testing.B) {
	text := thousandLines(b)
	files := []*lang.File{{Name: "big.srez.hcl", Src: []byte(text)}}
	m, _ := lang.Analyze(files)
	ix := lang.NewIndex(m)
	at := strings.Index(text, `fault "`) + len(`fault "`)
	hoverAt := strings.Index(text, "db_pool_too_small")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p95(b, "diagnostics", 20, func(j int) {
			// Every edit is new text, so the edited file is parsed anew;
			// the stdlib's trees come from the parse cache, as in an editor.
			edited := text + "# edit " + strconv.Itoa(i*100+j) + "\n"
			lang.Analyze([]*lang.File{{Name: "big.srez.hcl", Src: []byte(edited)}})
		})
		p95(b, "completion", 100, func(int) { completion(m, text, at) })
		p95(b, "hover", 100, func(int) { hover(m, ix, "big.srez.hcl", text, hoverAt) })
	}
}

// BenchmarkCompletion is completion's mean cost at the same place on the
// 1,000-line module: steadier than a p95 on a loaded machine.
func BenchmarkCompletion(b *testing.B) {
	text := thousandLines(b)
	m, _ := lang.Analyze([]*lang.File{{Name: "big.srez.hcl", Src: []byte(text)}})
	at := strings.Index(text, `fault "`) + len(`fault "`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		completion(m, text, at)
	}
}
