package report_test

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/srezc/srezc/report"
)

// figureIDs are the <figure> ids report.html must carry, one per plot.
var figureIDs = []string{"plot-marks", "plot-success-vs-coverage", "plot-heatmap", "plot-components", "plot-errors", "plot-infra"}

// measureScript, appended to a copy of report.html, records what Chromium
// laid out for each expected figure: the size of its <svg> on the page, the
// size of what the SVG drew (getBBox of its content), and how many shapes
// and texts it holds. --dump-dom prints the page after the script ran.
const measureScript = `<script>
(function () {
  var out = {};
  IDS.forEach(function (id) {
    var f = document.getElementById(id);
    var s = f && f.querySelector("svg");
    if (!s) { out[id] = null; return; }
    var r = s.getBoundingClientRect(), b = s.getBBox();
    out[id] = {width: r.width, height: r.height, drawnWidth: b.width, drawnHeight: b.height,
      shapes: s.querySelectorAll("path,rect,line,polyline,polygon,circle,ellipse").length,
      texts: s.querySelectorAll("text").length};
  });
  var p = document.createElement("pre");
  p.id = "measured";
  p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
})();
</script>`

type measured struct {
	Width, Height           float64
	DrawnWidth, DrawnHeight float64
	Shapes, Texts           int
}

// chromium finds a Chromium to run: Debian's package installs chromium.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestReportRendersInChromium opens report.html in headless Chromium and
// checks that every plot is on the page, laid out with a size, and drew
// something. Outside CI it is skipped when Chromium is not installed; in
// CI (CI set) a missing Chromium fails it.
func TestReportRendersInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("CI") == "" {
			t.Skip("chromium is not installed (apt-get install chromium); CI runs this test")
		}
		t.Fatal("chromium is not installed; .ci/run installs it")
	}
	dir := t.TempDir()
	if err := report.Write(dir, build(t, sweep(), report.Options{})); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	assertSelfContained(t, string(page))
	ids, _ := json.Marshal(figureIDs)
	script := strings.Replace(measureScript, "IDS", string(ids), 1)
	probe := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probe, []byte(strings.Replace(string(page), "</body>", script+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// --no-sandbox: Chromium refuses to run as root with its sandbox, and
	// the page is our own file. A fresh profile keeps the test off ~/.config.
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,2000", "--dump-dom", "file://"+probe)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	t.Logf("chromium rendered the report in %v", time.Since(start).Round(time.Millisecond))
	m := regexp.MustCompile(`(?s)<pre id="measured">(.*?)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the measuring script left no result; chromium printed:\n%.2000s\nstderr:\n%s", dom, stderr.String())
	}
	var got map[string]*measured
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got); err != nil {
		t.Fatalf("reading the measurements %s: %v", m[1], err)
	}
	for _, id := range figureIDs {
		p := got[id]
		switch {
		case p == nil:
			t.Errorf("%s: no <svg> inside <figure id=%q>", id, id)
		case p.Width <= 0 || p.Height <= 0:
			t.Errorf("%s: laid out %gx%g px", id, p.Width, p.Height)
		case p.DrawnWidth <= 0 || p.DrawnHeight <= 0:
			t.Errorf("%s: drawing is %gx%g", id, p.DrawnWidth, p.DrawnHeight)
		case p.Shapes < 5 || p.Texts < 3:
			t.Errorf("%s: %d shapes and %d texts, too few for a plot", id, p.Shapes, p.Texts)
		}
	}
}
