package lang

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file. Line and Column are 1-based; Column
// counts bytes, as HCL does. Byte is the 0-based offset, the unit every
// conversion (to runes for expr, to UTF-16 for LSP) goes through.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Range is a span of one file, end exclusive.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

func (r Range) String() string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// Severity of a diagnostic.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding about an author's source. Summary is a fixed
// phrase; names, values and suggestions go in Detail.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	Subject  *Range   `json:"range,omitempty"`
	// Related points at another place that explains this one, such as the
	// earlier declaration of a duplicate.
	Related *Range `json:"related,omitempty"`
}

func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil {
		b.WriteString(d.Subject.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// Diagnostics is a list of findings. It grows by Append and Extend, and is
// sorted by Sort before anyone sees it.
type Diagnostics []*Diagnostic

func (ds Diagnostics) Append(d *Diagnostic) Diagnostics { return append(ds, d) }

func (ds Diagnostics) Extend(more Diagnostics) Diagnostics { return append(ds, more...) }

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors counts the error diagnostics.
func (ds Diagnostics) Errors() int {
	n := 0
	for _, d := range ds {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

// Err is nil when there are no errors, so an empty list is never a non-nil error.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return ds
}

func (ds Diagnostics) Error() string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		parts = append(parts, d.Error())
	}
	return strings.Join(parts, "\n")
}

// Sort orders diagnostics by file, byte offset, severity and summary, and
// drops exact repeats, so output never depends on map order in HCL's decoder.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		af, bf, ab, bb := "", "", -1, -1
		if a.Subject != nil {
			af, ab = a.Subject.Filename, a.Subject.Start.Byte
		}
		if b.Subject != nil {
			bf, bb = b.Subject.Filename, b.Subject.Start.Byte
		}
		if af != bf {
			return af < bf
		}
		if ab != bb {
			return ab < bb
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		if a.Summary != b.Summary {
			return a.Summary < b.Summary
		}
		return a.Detail < b.Detail
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && sameDiagnostic(ds[i-1], d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func sameDiagnostic(a, b *Diagnostic) bool {
	if a.Severity != b.Severity || a.Summary != b.Summary || a.Detail != b.Detail {
		return false
	}
	if (a.Subject == nil) != (b.Subject == nil) {
		return false
	}
	return a.Subject == nil || *a.Subject == *b.Subject
}

// CapPerFile keeps the first n diagnostics of each file, in order, and
// puts in place of the rest one that says how many were not shown,
// located at the first of them. ds must be sorted. 100,000 unknown
// attributes used to give 100,006 diagnostics.
func (ds Diagnostics) CapPerFile(n int) Diagnostics {
	out, capped := ds[:0:0], false
	for i := 0; i < len(ds); {
		file := subjectFile(ds[i])
		j := i
		for j < len(ds) && subjectFile(ds[j]) == file {
			j++
		}
		if j-i <= n {
			out = append(out, ds[i:j]...)
		} else {
			out = append(out, ds[i:i+n]...)
			out = append(out, notShown(ds[i+n:j]))
			capped = true
		}
		i = j
	}
	if capped {
		// The summary shares its place with the first hidden one, which
		// may tie with the last shown.
		return out.Sort()
	}
	return out
}

func subjectFile(d *Diagnostic) string {
	if d.Subject == nil {
		return ""
	}
	return d.Subject.Filename
}

// notShown sums up hidden diagnostics of one file.
func notShown(hidden Diagnostics) *Diagnostic {
	errs := hidden.Errors()
	warns := len(hidden) - errs
	d := &Diagnostic{Severity: Error, Summary: "Too many diagnostics"}
	switch {
	case warns == 0:
		d.Detail = fmt.Sprintf("%d more errors not shown", errs)
	case errs == 0:
		d.Severity = Warning
		d.Detail = fmt.Sprintf("%d more warnings not shown", warns)
	default:
		d.Detail = fmt.Sprintf("%d more errors and %d more warnings not shown", errs, warns)
	}
	d.Detail += fmt.Sprintf(" (at most %d are reported per file, MaxDiagnosticsPerFile); fix these and run again.", MaxDiagnosticsPerFile)
	if s := hidden[0].Subject; s != nil {
		r := *s
		d.Subject = &r
	}
	return d
}
