package report

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/srezc/srezc/record"
)

// Write writes the report of s into dir: summary.json, summary.md,
// report.html and plots/*.svg. Everything is rendered in memory first, so
// a rendering error writes nothing; then each file is written to a
// temporary file in its folder and renamed over its name, so a reader
// never sees half a file.
func Write(dir string, s *Summary) error {
	files, err := Render(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := record.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data); err != nil {
			return err
		}
	}
	return nil
}

// File is one file of the report: its slash-separated path under the
// report's folder and its bytes.
type File struct {
	Name string
	Data []byte
}

// Render renders every file of the report, in the order Write writes them.
func Render(s *Summary) ([]File, error) {
	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	plots, err := Plots(s)
	if err != nil {
		return nil, err
	}
	page, err := HTML(s, plots)
	if err != nil {
		return nil, err
	}
	files := []File{{"summary.json", append(js, '\n')}, {"summary.md", []byte(Markdown(s))}}
	for _, p := range plots {
		files = append(files, File{"plots/" + p.File, p.SVG})
	}
	return append(files, File{"report.html", page}), nil
}
