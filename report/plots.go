package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot is one figure of the report: its file name under plots/, the id of
// its <figure> in report.html, a caption, and the SVG.
type Plot struct {
	File    string
	ID      string
	Caption string
	SVG     []byte
}

// Plots draws every figure of the report from the summary, in the order
// report.html shows them.
func Plots(s *Summary) ([]Plot, error) {
	figures := []struct {
		file, id, caption string
		draw              func(*Summary) (*svgFigure, error)
	}{
		{"marks.svg", "plot-marks", "Marks per model with the 95% bootstrap interval (resampling tasks). * not ranked.", marksPlot},
		{"success_vs_coverage.svg", "plot-success-vs-coverage", "Success rate against evidence coverage per model; bars are the 95% interval of the success rate.", successCoveragePlot},
		{"heatmap.svg", "plot-heatmap", "Success rate per task and model, from dark purple (0) to yellow (1); tasks by difficulty, then by success. Grey with × = only infra errors (no scored episode); * = some infra errors; blank = not played.", heatmapPlot},
		{"components.svg", "plot-components", "Mean reward components per model over scored episodes (penalties are negative).", componentsPlot},
		{"errors.svg", "plot-errors", "Invalid-action rate and failure modes (share of scored episodes) per model.", errorsPlot},
		{"infra.svg", "plot-infra", "Infrastructure errors per model (excluded from every metric).", infraPlot},
	}
	var out []Plot
	for _, f := range figures {
		fig, err := f.draw(s)
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", f.file, err)
		}
		var buf bytes.Buffer
		if _, err := fig.canvas.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("drawing %s: %w", f.file, err)
		}
		out = append(out, Plot{File: f.file, ID: f.id, Caption: f.caption, SVG: buf.Bytes()})
	}
	return out, nil
}

// svgFigure is a drawn SVG canvas.
type svgFigure struct{ canvas *vgsvg.Canvas }

// render draws one plot on an SVG canvas of the given size.
func render(p *plot.Plot, w, h vg.Length) *svgFigure {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	return &svgFigure{c}
}

// palette is Okabe and Ito's colour-blind-safe set; the report keeps its
// own instead of plotutil's package-level, mutable DefaultColors.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, color.RGBA{0xe6, 0x9f, 0x00, 0xff}, color.RGBA{0x00, 0x9e, 0x73, 0xff},
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, color.RGBA{0x56, 0xb4, 0xe9, 0xff}, color.RGBA{0xcc, 0x79, 0xa7, 0xff},
	color.RGBA{0xf0, 0xe4, 0x42, 0xff}, color.RGBA{0x99, 0x99, 0x99, 0xff},
}

var (
	grey      = color.RGBA{0xbd, 0xbd, 0xbd, 0xff}
	darkGrey  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	lightGrey = color.RGBA{0xee, 0xee, 0xee, 0xff}
)

// sans switches a text style to Liberation Sans, keeping its size: gonum
// measures text with its embedded Liberation fonts, so the SVG bytes do
// not depend on the machine's fonts (report.html names metric-compatible
// fallbacks for viewers without Liberation).
func sans(s *text.Style) {
	s.Font.Typeface = "Liberation"
	s.Font.Variant = "Sans"
}

// newPlot is a plot with a title, axis labels and sans-serif text.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, s := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		sans(s)
	}
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	p.X.Tick.Label.Font.Size = vg.Points(9)
	return p
}

// modelAxis names the models along x, turning the names when the widest
// would not fit its column of a plot width wide (less room for the y
// axis).
func modelAxis(p *plot.Plot, names []string, width vg.Length) {
	p.NominalX(names...)
	widest := vg.Length(0)
	for _, n := range names {
		widest = max(widest, p.X.Tick.Label.Width(n))
	}
	if widest > 0.9*(width-0.8*vg.Inch)/vg.Length(max(1, len(names))) {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
}

// modelsWidth is a canvas width for per-model bars, perModel each.
func modelsWidth(n int, perModel vg.Length) vg.Length {
	return max(5*vg.Inch, 1.5*vg.Inch+vg.Length(n)*perModel)
}

func modelNames(s *Summary) []string {
	names := make([]string, len(s.Models))
	for i, m := range s.Models {
		names[i] = m.Name
	}
	return names
}

// bar is a one-value bar chart at category x (a model's column): models
// without scored episodes get no bar rather than a bar of zero.
func bar(x int, v float64, width vg.Length, c color.Color) (*plotter.BarChart, error) {
	b, err := plotter.NewBarChart(plotter.Values{v}, width)
	if err != nil {
		return nil, err
	}
	b.XMin = float64(x)
	b.Color = c
	b.LineStyle.Width = 0
	return b, nil
}

func marksPlot(s *Summary) (*svgFigure, error) {
	p := newPlot("Marks (0–100)", "", "marks")
	names := modelNames(s)
	var xys plotter.XYs
	var errs plotter.YErrors
	for i, m := range s.Models {
		if m.Rank == 0 {
			names[i] += " *"
		}
		if m.Episodes == 0 {
			names[i] = m.Name + " (no scored episode)"
			continue
		}
		c := palette[0]
		if m.Rank == 0 {
			c = grey
		}
		marks := m.Overall.Get("marks")
		b, err := bar(i, marks, vg.Points(28), c)
		if err != nil {
			return nil, err
		}
		p.Add(b)
		xys = append(xys, plotter.XY{X: float64(i), Y: marks})
		errs = append(errs, struct{ Low, High float64 }{marks - m.CI.Marks.Low, m.CI.Marks.High - marks})
	}
	if len(xys) > 0 {
		p.Add(&plotter.YErrorBars{XYs: xys, YErrors: errs, LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(1)}, CapWidth: vg.Points(8)})
	}
	width := modelsWidth(len(names), 0.9*vg.Inch)
	modelAxis(p, names, width)
	p.Y.Min, p.Y.Max = 0, 100
	return render(p, width, 4*vg.Inch), nil
}

func successCoveragePlot(s *Summary) (*svgFigure, error) {
	p := newPlot("Success against evidence coverage", "evidence coverage", "success rate")
	var xys plotter.XYs
	var labels []string
	var errs plotter.YErrors
	for _, m := range s.Models {
		if m.Episodes == 0 {
			continue
		}
		x, y := m.Overall.Get("evidence_coverage"), m.Overall.Get("success_rate")
		xys = append(xys, plotter.XY{X: x, Y: y})
		labels = append(labels, m.Name)
		errs = append(errs, struct{ Low, High float64 }{y - m.CI.SuccessRate.Low, m.CI.SuccessRate.High - y})
	}
	if len(xys) > 0 {
		p.Add(&plotter.YErrorBars{XYs: xys, YErrors: errs, LineStyle: draw.LineStyle{Color: darkGrey, Width: vg.Points(0.8)}, CapWidth: vg.Points(5)})
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, err
		}
		for i := range lb.TextStyle {
			sans(&lb.TextStyle[i])
		}
		lb.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(3)}
		p.Add(lb)
	}
	p.Add(plotter.NewGrid())
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1.05, 0, 1.05
	return render(p, 6*vg.Inch, 4.5*vg.Inch), nil
}

// heatCell is one (task, model) cell of the heatmap.
type heatCell struct {
	col, row       int
	success        float64 // over the scored episodes
	someInfra      bool    // some episodes were infra errors
	onlyInfraError bool    // every episode was: no success rate at all
}

// heatmap draws the cells; it is a plot.Plotter.
type heatmap struct {
	cells      []heatCell
	cols, rows int
	label      text.Style
}

func (h *heatmap) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(h.cols) - 0.5, -0.5, float64(h.rows) - 0.5
}

// successColor maps a success rate onto viridis, from dark purple (0)
// through teal to yellow (1): ordered in lightness and readable with every
// common colour-vision deficiency, unlike red to green. The five anchors
// are matplotlib's viridis at 0, ¼, ½, ¾ and 1.
func successColor(v float64) color.Color {
	anchors := [...][3]uint8{{0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}}
	v = math.Min(1, math.Max(0, v))
	seg := math.Min(float64(len(anchors)-2), math.Floor(v*float64(len(anchors)-1)))
	t := v*float64(len(anchors)-1) - seg
	from, to := anchors[int(seg)], anchors[int(seg)+1]
	lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + t*(float64(b)-float64(a)))) }
	return color.RGBA{lerp(from[0], to[0]), lerp(from[1], to[1]), lerp(from[2], to[2]), 0xff}
}

// labelColor is white on viridis' dark half and black on its light half.
func labelColor(v float64) color.Color {
	if v < 0.5 {
		return color.White
	}
	return color.Black
}

func (h *heatmap) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	border := draw.LineStyle{Color: color.White, Width: vg.Points(1)}
	cross := draw.LineStyle{Color: darkGrey, Width: vg.Points(1.2)}
	for _, cell := range h.cells {
		x0, x1 := trX(float64(cell.col)-0.5), trX(float64(cell.col)+0.5)
		y0, y1 := trY(float64(cell.row)-0.5), trY(float64(cell.row)+0.5)
		box := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		label := h.label
		switch {
		case cell.onlyInfraError:
			// Never a zero: grey, crossed out, and labelled as such.
			c.FillPolygon(grey, box)
			c.StrokeLine2(cross, x0, y0, x1, y1)
			c.StrokeLine2(cross, x0, y1, x1, y0)
			c.FillText(label, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, "infra")
		default:
			c.FillPolygon(successColor(cell.success), box)
			label.Color = labelColor(cell.success)
			txt := fmt.Sprintf("%.2f", cell.success)
			if cell.someInfra {
				txt += "*"
			}
			c.FillText(label, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, txt)
		}
		c.StrokeLines(border, append(box, box[0]))
	}
}

func heatmapPlot(s *Summary) (*svgFigure, error) {
	p := newPlot("Success per task", "", "")
	var tasks []string
	row := map[string]int{}
	difficulty := map[string]string{}
	success := map[string]float64{} // summed over the models that scored it
	for _, m := range s.Models {
		for _, g := range m.ByTask {
			if _, ok := row[g.Name]; !ok {
				row[g.Name] = 0
				tasks = append(tasks, g.Name)
			}
			difficulty[g.Name] = cmp.Or(difficulty[g.Name], g.Difficulty)
			if g.Episodes > 0 {
				success[g.Name] += g.Metrics.Get("success_rate")
			}
		}
	}
	// Easy tasks first, then medium, then hard; within a difficulty the
	// tasks agents solve most first, so the hard cases gather at the
	// bottom of each band; then by name.
	level := func(t string) int {
		if i := slices.Index(difficultyOrder, difficulty[t]); i >= 0 {
			return i
		}
		return len(difficultyOrder)
	}
	slices.SortFunc(tasks, func(a, b string) int {
		return cmp.Or(cmp.Compare(level(a), level(b)), cmp.Compare(success[b], success[a]), cmp.Compare(a, b))
	})
	// The first task goes at the top.
	for i, t := range tasks {
		row[t] = len(tasks) - 1 - i
	}
	h := &heatmap{cols: len(s.Models), rows: len(tasks), label: p.X.Tick.Label}
	h.label.Rotation = 0
	h.label.XAlign, h.label.YAlign = draw.XCenter, draw.YCenter
	h.label.Font.Size = vg.Points(7)
	for col, m := range s.Models {
		for _, g := range m.ByTask {
			cell := heatCell{col: col, row: row[g.Name], someInfra: g.InfraErrors > 0, onlyInfraError: g.Episodes == 0}
			if g.Episodes > 0 {
				cell.success = g.Metrics.Get("success_rate")
			}
			h.cells = append(h.cells, cell)
		}
	}
	p.Add(h)
	reversed := make([]string, len(tasks))
	names := vg.Length(0) // the task names' column, labels now carrying a difficulty
	for i, t := range tasks {
		if d := difficulty[t]; d != "" {
			t += " (" + d + ")"
		}
		reversed[len(tasks)-1-i] = t
		names = max(names, p.Y.Tick.Label.Width(t))
	}
	names = max(names, 1.4*vg.Inch) + 0.4*vg.Inch
	w := max(4*vg.Inch, names+0.8*vg.Inch+vg.Length(len(s.Models))*0.9*vg.Inch)
	modelAxis(p, modelNames(s), w-names)
	if len(reversed) > 0 {
		p.NominalY(reversed...)
	}
	p.Y.Min, p.Y.Max = -0.5, float64(len(tasks))-0.5
	p.X.Min, p.X.Max = -0.5, float64(len(s.Models))-0.5
	hgt := max(3*vg.Inch, 1.4*vg.Inch+vg.Length(len(tasks))*vg.Points(15))
	return render(p, w, hgt), nil
}

// componentNames are the reward components in the order the plot shows.
var componentNames = []string{"evidence", "diagnosis", "mitigation", "resolution", "efficiency", "penalties"}

func componentValues(m *Model) []float64 {
	c := m.Components
	return []float64{c.Evidence, c.Diagnosis, c.Mitigation, c.Resolution, c.Efficiency, c.Penalties}
}

func componentsPlot(s *Summary) (*svgFigure, error) {
	p := newPlot("Mean reward components", "", "mean per scored episode")
	const w = vg.Length(9)
	lo, hi := 0.0, 0.1
	for k, name := range componentNames {
		var bars []plot.Plotter
		for i := range s.Models {
			m := &s.Models[i]
			if m.Episodes == 0 {
				continue
			}
			v := componentValues(m)[k]
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			b, err := bar(i, v, w, palette[k])
			if err != nil {
				return nil, err
			}
			b.Offset = (vg.Length(k) - 2.5) * w
			bars = append(bars, b)
		}
		p.Add(bars...)
		if len(bars) > 0 {
			p.Legend.Add(name, bars[0].(*plotter.BarChart))
		}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(2)
	width := modelsWidth(len(s.Models), 0.9*vg.Inch)
	modelAxis(p, modelNames(s), width)
	// Head room for the legend above the tallest bar.
	p.Y.Min, p.Y.Max = lo-0.05, hi+0.45*(hi-lo+0.05)+0.05
	return render(p, width, 4.5*vg.Inch), nil
}

func errorsPlot(s *Summary) (*svgFigure, error) {
	names := modelNames(s)
	rate := newPlot("Invalid-action rate", "", "invalid actions / steps")
	for i, m := range s.Models {
		if m.Episodes == 0 {
			continue
		}
		b, err := bar(i, m.Overall.Get("invalid_action_rate"), vg.Points(24), palette[3])
		if err != nil {
			return nil, err
		}
		rate.Add(b)
	}
	width := modelsWidth(len(names), 1.2*vg.Inch) + 2*vg.Inch
	legendWidth := 1.9 * vg.Inch
	plotsWidth := width - legendWidth
	modelAxis(rate, names, plotsWidth*0.45)
	rate.Y.Min = 0
	rate.Y.Max = math.Max(0.1, rate.Y.Max)

	modes := newPlot("Failure modes", "", "share of scored episodes")
	legend := plot.NewLegend()
	legend.Left, legend.Top = true, true
	sans(&legend.TextStyle)
	legend.TextStyle.Font.Size = vg.Points(9)
	legend.Padding = vg.Points(3)
	var modeNames []string
	for _, m := range s.Models {
		for _, fm := range m.FailureModes {
			if !slices.Contains(modeNames, fm.Mode) {
				modeNames = append(modeNames, fm.Mode)
			}
		}
	}
	below := map[int]*plotter.BarChart{}
	for k, mode := range modeNames {
		var first *plotter.BarChart
		for i, m := range s.Models {
			if m.Episodes == 0 {
				continue
			}
			count := 0
			for _, fm := range m.FailureModes {
				if fm.Mode == mode {
					count = fm.Count
				}
			}
			b, err := bar(i, float64(count)/float64(m.Episodes), vg.Points(24), palette[k%len(palette)])
			if err != nil {
				return nil, err
			}
			if prev := below[i]; prev != nil {
				b.StackOn(prev)
			}
			below[i] = b
			modes.Add(b)
			if first == nil {
				first = b
			}
		}
		if first != nil {
			legend.Add(mode, first)
		}
	}
	modelAxis(modes, names, plotsWidth*0.55)
	modes.Y.Min, modes.Y.Max = 0, 1

	c := vgsvg.New(width, 4*vg.Inch)
	dc := draw.New(c)
	left := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: dc.Min, Max: vg.Point{X: dc.Min.X + plotsWidth*0.45, Y: dc.Max.Y}}}
	right := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: left.Max.X, Y: dc.Min.Y}, Max: vg.Point{X: dc.Min.X + plotsWidth, Y: dc.Max.Y}}}
	key := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: right.Max.X + vg.Points(8), Y: dc.Min.Y}, Max: vg.Point{X: dc.Max.X, Y: dc.Max.Y - vg.Points(24)}}}
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Min.X, Y: dc.Max.Y}, dc.Max, {X: dc.Max.X, Y: dc.Min.Y}})
	rate.Draw(left)
	modes.Draw(right)
	legend.Draw(key)
	return &svgFigure{c}, nil
}

func infraPlot(s *Summary) (*svgFigure, error) {
	p := newPlot("Infrastructure errors", "", "episodes")
	var xys plotter.XYs
	var labels []string
	top := 1.0
	for i, m := range s.Models {
		b, err := bar(i, float64(m.InfraErrors), vg.Points(28), palette[1])
		if err != nil {
			return nil, err
		}
		p.Add(b)
		top = math.Max(top, float64(m.InfraErrors))
		xys = append(xys, plotter.XY{X: float64(i), Y: float64(m.InfraErrors)})
		labels = append(labels, fmt.Sprintf("%d (%s)", m.InfraErrors, percent(m.InfraShare)))
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lb.TextStyle {
		sans(&lb.TextStyle[i])
		lb.TextStyle[i].XAlign = draw.XCenter
		lb.TextStyle[i].Font.Size = vg.Points(9)
	}
	lb.Offset = vg.Point{Y: vg.Points(4)}
	p.Add(lb)
	width := modelsWidth(len(s.Models), 0.9*vg.Inch)
	modelAxis(p, modelNames(s), width)
	p.Y.Min, p.Y.Max = 0, top*1.2
	return render(p, width, 3.5*vg.Inch), nil
}
