package report

import (
	"fmt"
	"strings"
)

// Markdown renders the summary as summary.md: the overview, then every
// section as a table.
func Markdown(s *Summary) string {
	var b strings.Builder
	b.WriteString("# srezc report\n\n")
	b.WriteString(overview(s))
	b.WriteString("\n")
	for _, sec := range sections(s) {
		fmt.Fprintf(&b, "\n## %s\n\n", sec.title)
		if sec.intro != "" {
			b.WriteString(sec.intro + "\n\n")
		}
		if len(sec.rows) == 0 {
			b.WriteString(sec.empty + "\n")
			continue
		}
		writeMarkdownRow(&b, sec.header)
		b.WriteString("|" + strings.Repeat("---|", len(sec.header)) + "\n")
		for _, row := range sec.rows {
			writeMarkdownRow(&b, row)
		}
	}
	return b.String()
}

func writeMarkdownRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + markdownCell(c) + " |")
	}
	b.WriteString("\n")
}

// markdownCell keeps a cell on one line and its pipes out of the table's
// structure (an infra error's message can hold either).
func markdownCell(c string) string {
	c = strings.Join(strings.Fields(c), " ")
	if c == "" {
		return " "
	}
	return strings.ReplaceAll(c, "|", `\|`)
}
