package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/report"
)

// sweep is a small evaluation with everything a report shows: three
// models, one with infra errors (one task lost entirely), one with usage
// and both noise halves, failures of several kinds.
func sweep() []record.Line {
	var recs []record.Line
	tasks := []string{"db_down", "cache_cold", "pool_small", "cert_expired"}
	difficulty := []string{"easy", "medium", "hard", "medium"}
	for i, task := range tasks {
		for seed := uint64(1); seed <= 3; seed++ {
			s := episode("scripted", task, seed, true)
			g := episode("greedy", task, seed, i == 0)
			if i == 2 {
				g.Failure, g.Metrics.WrongRemediations, g.Metrics.RemediationActions = "wrong_remediation", 1, 1
			}
			if task == "cert_expired" {
				g = infraError("greedy", task, seed, "connection reset | by peer")
			}
			for _, noise := range []string{"on", "off"} {
				l := episode("llm", task, seed, noise == "off" && i != 3)
				l.Model, l.Prompt, l.Noise = "acme/large", "p1", noise
				l.Usage = &record.Usage{Calls: 5 + int(seed), Retries: int(seed) % 2, PromptTokens: 1000 * (i + 1), CompletionTokens: 120 + i, LatencyMS: int64(900 + 10*i)}
				l.Metrics.InvalidActions = i % 2
				recs = append(recs, l)
			}
			for _, r := range []*record.Line{&s, &g} {
				r.Difficulty = difficulty[i]
			}
			recs = append(recs, s, g)
		}
	}
	for i := range recs {
		recs[i].Tags = []string{"tag_" + recs[i].Difficulty}
	}
	return recs
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var reportFiles = []string{"summary.json", "summary.md", "report.html", "plots/marks.svg", "plots/success_vs_coverage.svg",
	"plots/heatmap.svg", "plots/components.svg", "plots/errors.svg", "plots/infra.svg"}

func TestWriteIsByteIdentical(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	for _, dir := range []string{one, two, two} { // the second write over the first
		if err := report.Write(dir, build(t, sweep(), report.Options{})); err != nil {
			t.Fatal(err)
		}
	}
	a, b := readDir(t, one), readDir(t, two)
	if len(a) != len(reportFiles) {
		t.Errorf("wrote %d files, want %d: %v", len(a), len(reportFiles), keys(a))
	}
	for _, name := range reportFiles {
		if len(a[name]) == 0 {
			t.Errorf("%s missing or empty", name)
		}
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two writes", name)
		}
	}
	for _, svg := range reportFiles[3:] {
		if bytes.Contains(a[svg], []byte("<image")) || !bytes.Contains(a[svg], []byte("<svg")) {
			t.Errorf("%s is not a vector SVG", svg)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHeatmapMarksInfraOnlyCells(t *testing.T) {
	s := build(t, sweep(), report.Options{})
	plots, err := report.Plots(s)
	if err != nil {
		t.Fatal(err)
	}
	var heat string
	for _, p := range plots {
		if p.File == "heatmap.svg" {
			heat = string(p.SVG)
		}
	}
	// greedy lost cert_expired on every seed: one crossed-out grey cell.
	if n := strings.Count(heat, ">infra</text>"); n != 1 {
		t.Errorf("heatmap has %d infra-only cells, want 1", n)
	}
	if !strings.Contains(heat, "fill:#BDBDBD") {
		t.Errorf("heatmap has no grey cell")
	}
	// Zero-success cells: greedy on cache_cold and pool_small, llm on
	// cert_expired; the infra-only cell is not among them.
	if n := strings.Count(heat, ">0.00</text>"); n != 3 {
		t.Errorf("heatmap shows %d cells of 0.00, want 3", n)
	}
}

// TestHeatmapViridisByDifficulty: the heatmap's cells run on viridis (no
// red or green a colour-blind reader cannot tell apart), and its rows go
// by difficulty, then by success.
func TestHeatmapViridisByDifficulty(t *testing.T) {
	var recs []record.Line
	for _, c := range []struct {
		task, difficulty string
		wins             int
	}{{"h_solved", "hard", 2}, {"e_unsolved", "easy", 0}, {"m_half", "medium", 1}, {"e_solved", "easy", 2}, {"h_unsolved", "hard", 0}} {
		for seed := uint64(1); seed <= 2; seed++ {
			r := episode("m", c.task, seed, int(seed) <= c.wins)
			r.Difficulty = c.difficulty
			recs = append(recs, r)
		}
	}
	plots, err := report.Plots(build(t, recs, report.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var heat string
	for _, p := range plots {
		if p.File == "heatmap.svg" {
			heat = string(p.SVG)
		}
	}
	for _, old := range []string{"#D73027", "#1A9850"} {
		if strings.Contains(strings.ToUpper(heat), old) {
			t.Errorf("heatmap still uses %s (red/green)", old)
		}
	}
	for _, v := range []string{"#440154", "#FDE725"} { // viridis at 0 and 1
		if !strings.Contains(strings.ToUpper(heat), v) {
			t.Errorf("heatmap has no %s cell", v)
		}
	}
	// Rows top to bottom: easy solved, easy unsolved, medium, hard solved,
	// hard unsolved. The SVG writes the y labels bottom up.
	var at []int
	for _, name := range []string{"h_unsolved (hard)", "h_solved (hard)", "m_half (medium)", "e_unsolved (easy)", "e_solved (easy)"} {
		at = append(at, strings.Index(heat, ">"+name+"<"))
	}
	if !slices.IsSorted(at) || at[0] < 0 {
		t.Errorf("row labels at %v in the SVG, want bottom-up hard unsolved … easy solved", at)
	}
}

func TestMarkdownAndHTMLCarryEverySection(t *testing.T) {
	s := build(t, sweep(), report.Options{})
	md := report.Markdown(s)
	plots, err := report.Plots(s)
	if err != nil {
		t.Fatal(err)
	}
	page, err := report.HTML(s, plots)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, title := range []string{"Overall", "Ranking", "Infra errors counted as failures", "By difficulty", "By split", "By tag", "By family",
		"pass^k", "Paired differences", "Noise deltas", "P(mitigation | diagnosis)", "Usage per episode", "Infra errors per model", "Infra-error episodes"} {
		if !strings.Contains(md, "\n## "+title+"\n") {
			t.Errorf("summary.md has no section %q", title)
		}
		if !strings.Contains(html, ">"+strings.ReplaceAll(title, "|", "|")) {
			t.Errorf("report.html has no section %q", title)
		}
	}
	for _, want := range []string{
		"| greedy | 3 | 25% | no |",                          // infra errors per model: 3 of 12, unranked
		"| 2 | llm/acme/large |",                             // the LLM ranked second
		"connection reset \\| by peer",                       // a message's pipe escaped
		"| llm/acme/large | 12 | 4 | -0.750 [",               // noise delta: on minus off
		"| llm/acme/large | 24 | 2500.0 / 2500.0 / 4000.0 |", // usage: 1000 to 4000 prompt tokens, 6 episodes each
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	for _, id := range []string{"plot-marks", "plot-success-vs-coverage", "plot-heatmap", "plot-components", "plot-errors", "plot-infra"} {
		if strings.Count(html, `<figure id="`+id+`">`) != 1 {
			t.Errorf("report.html lacks figure %s", id)
		}
	}
	assertSelfContained(t, html)
}

// assertSelfContained fails when the page needs anything beyond itself.
func assertSelfContained(t *testing.T, html string) {
	t.Helper()
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "href=\"http"} {
		if strings.Contains(html, bad) {
			t.Errorf("report.html contains %q: not self-contained", bad)
		}
	}
}

// The paired comparisons run in parallel; the summary must not notice.
func TestBuildIndependentOfGOMAXPROCS(t *testing.T) {
	recs := sweep()
	for i := range recs {
		if recs[i].Agent == "llm" {
			recs[i].Noise = "" // so llm pairs with the others too
		}
	}
	var outs [][]byte
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		js, err := json.Marshal(build(t, recs, report.Options{}))
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, js)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("the summary differs between GOMAXPROCS 1 and 4")
	}
	if s := build(t, recs, report.Options{}); len(s.Paired) != 3 {
		t.Fatalf("%d paired comparisons, want 3 (every pair of three models)", len(s.Paired))
	}
}
