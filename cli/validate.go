package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

func (e *env) validateCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "validate [--format text|json] [PATH...]",
		Short: "Check incident files and folders; exit 1 if there are errors",
		RunE: func(c *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			files, diags := readInputs(args)
			if len(args) == 0 {
				// The embedded default unchanged since the binary was
				// built: its validation shipped with it, whole.
				if n, ok := compiler.ModuleValidated(srezc.CompilerCode(), files); ok {
					return validated(e, format, n)
				}
			}
			key := ""
			if len(diags) == 0 {
				key = validateKey(format, files)
				var stored validateOutput
				if b, ok := e.certified.Output(key); ok && json.Unmarshal(b, &stored) == nil {
					return stored.replay(e)
				}
			}
			var out validateOutput
			var stdout, stderr bytes.Buffer
			m, more := lang.Analyze(files)
			diags = append(diags, more...)
			// The embedded suite's incidents unchanged since the binary
			// was built are found in its shipped table, not compiled
			// again (compiler/validated.go); a PATH is compiled in full.
			var shipped *[sha256.Size]byte
			if len(args) == 0 {
				code := srezc.CompilerCode()
				shipped = &code
			}
			checked := compiler.CheckWith(m, compiler.Options{Cache: e.certified}, shipped)
			diags = append(diags, checked.Diags...).Sort()
			if format == "json" {
				if err := lang.WriteJSON(&stdout, diags); err != nil {
					return err
				}
			} else {
				lang.WriteText(&stderr, m.Files, diags)
				if n := diags.Errors(); n > 0 {
					fmt.Fprintf(&stderr, "%d error(s)\n", n)
				} else {
					fmt.Fprintln(&stderr, validateSummary(len(m.Incidents), checked.Certified, len(diags)))
				}
			}
			out.Stdout, out.Stderr, out.Failed = stdout.String(), stderr.String(), diags.HasErrors()
			if key != "" {
				if b, err := json.Marshal(out); err == nil {
					e.certified.PutOutput(key, b)
				}
			}
			return out.replay(e)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

// validated prints what validating a clean module of n incidents, all
// certified, prints.
func validated(e *env, format string, n int) error {
	if format == "json" {
		return lang.WriteJSON(e.stdout, nil)
	}
	_, err := fmt.Fprintln(e.stderr, validateSummary(n, n, 0))
	return err
}

// validateOutput is what a validation printed, kept in the disk cache
// under validateKey: validation is a function of srezc's code and its
// inputs, so an unchanged suite is validated once per srezc build, the way
// go vet and go test cache their results.
type validateOutput struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Failed bool   `json:"failed"`
}

func (o validateOutput) replay(e *env) error {
	io.WriteString(e.stdout, o.Stdout)
	io.WriteString(e.stderr, o.Stderr)
	if o.Failed {
		return errPrinted
	}
	return nil
}

// validateKey names a validation's inputs: the output format and every
// file read, by name and content (the stdlib and the embedded suite are
// part of the code, which names the cache's folder).
func validateKey(format string, files []*lang.File) string {
	h := sha256.New()
	io.WriteString(h, "validate\x00"+format)
	for _, f := range files {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", f.Name, len(f.Src))
		h.Write(f.Src)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// validateSummary is the line a clean run ends with, so that silence is
// never the only sign of success: "45 incidents, 45 certified". Incidents
// under sre_zero may import uncertified (a warning each).
func validateSummary(incidents, certified, warnings int) string {
	noun := "incidents"
	if incidents == 1 {
		noun = "incident"
	}
	s := fmt.Sprintf("%d %s, %d certified", incidents, noun, certified)
	if warnings > 0 {
		s += fmt.Sprintf(", %d warning(s)", warnings)
	}
	return s
}
