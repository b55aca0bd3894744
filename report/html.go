package report

import (
	"bytes"
	"html/template"
	"strings"
)

// HTML renders report.html: one self-contained page (CSS inline, plots as
// inline <svg> elements, no script, nothing fetched), every plot in a
// <figure id="plot-..."> and every section of summary.md as a table.
func HTML(s *Summary, plots []Plot) ([]byte, error) {
	type figure struct {
		ID, Caption string
		SVG         template.HTML
	}
	data := struct {
		Overview string
		Figures  []figure
		Sections []htmlSection
	}{Overview: overview(s)}
	for _, p := range plots {
		data.Figures = append(data.Figures, figure{ID: p.ID, Caption: p.Caption, SVG: template.HTML(inlineSVG(p.SVG))})
	}
	for _, sec := range sections(s) {
		data.Sections = append(data.Sections, htmlSection{ID: sec.id, Title: sec.title, Intro: sec.intro, Header: sec.header, Rows: sec.rows, Empty: sec.empty, Long: sec.long})
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type htmlSection struct {
	ID, Title, Intro string
	Header           []string
	Rows             [][]string
	Empty            string
	Long             bool
}

// inlineSVG drops what precedes the <svg> element (the XML declaration
// and vgsvg's comment), which has no place inside an HTML document.
func inlineSVG(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// The plots name Liberation fonts (gonum measured their text with them);
// the fallbacks are metric-compatible, so labels keep their room where
// Liberation is not installed.
var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>srezc report</title>
<style>
body{font-family:"Liberation Sans",Arimo,Arial,Helvetica,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}
nav a{margin-right:.8em}
figure{margin:1.5em 0;padding:.5em;border:1px solid #e4e4e4;overflow-x:auto}
figure svg{max-width:100%;height:auto;display:block}
figure svg text{font-family:"Liberation Sans",Arimo,Arial,Helvetica,sans-serif !important}
figcaption{font-size:.9em;color:#555;margin-top:.4em}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(30em,1fr));gap:1em}
table{border-collapse:collapse;font-size:.88em;margin:.5em 0;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top;white-space:nowrap}
th{background:#f4f4f4}
tr:nth-child(even) td{background:#fafafa}
td.msg{white-space:normal}
summary{cursor:pointer;color:#0645ad}
</style>
</head>
<body>
<h1>srezc report</h1>
<p>{{.Overview}}</p>
<nav>{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a> {{end}}</nav>
<h2 id="plots">Plots</h2>
<div class="plots">
{{range .Figures}}<figure id="{{.ID}}">
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}</div>
{{range .Sections}}<h2 id="{{.ID}}">{{.Title}}</h2>
{{if .Intro}}<p>{{.Intro}}</p>
{{end}}{{if not .Rows}}<p>{{.Empty}}</p>
{{else}}{{if .Long}}<details><summary>{{len .Rows}} rows</summary>
{{end}}<table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{if .Long}}</details>
{{end}}{{end}}{{end}}</body>
</html>
`))
