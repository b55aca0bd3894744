package cli

import (
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/llm"
)

// versionInfo is what srezc version prints: every version a result record
// carries, and the hash of the suite built into this binary.
type versionInfo struct {
	Srezc    string `json:"srezc"`
	Module   string `json:"module,omitempty"`
	Go       string `json:"go,omitempty"`
	Format   int    `json:"ir_format"`
	Renderer string `json:"renderer"`
	Rubric   int    `json:"rubric_version"`
	Prompt   string `json:"prompt"`
	Suite    string `json:"suite"`
	Tasks    int    `json:"suite_tasks"`
}

func (e *env) versionInfo() (versionInfo, error) {
	v := versionInfo{Srezc: Version, Format: engine.FormatVersion, Renderer: engine.RendererVersion, Rubric: engine.RubricVersion, Prompt: llm.PromptVersion}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Module, v.Go = bi.Main.Version, bi.GoVersion
	}
	_, tasks, err := e.loadModule(nil, compiler.Options{})
	if err != nil {
		return v, err
	}
	v.Suite, v.Tasks = engine.SuiteHash(tasks), len(tasks)
	return v, nil
}

func (e *env) printVersion(asJSON bool) error {
	v, err := e.versionInfo()
	if err != nil {
		return err
	}
	if asJSON {
		js, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", js)
		return nil
	}
	fmt.Fprintf(e.stdout, "srezc %s", v.Srezc)
	if v.Module != "" || v.Go != "" {
		fmt.Fprintf(e.stdout, " (module %s, %s)", v.Module, v.Go)
	}
	fmt.Fprintf(e.stdout, "\nIR format       %d\nrenderer        %s\nrubric version  %d\nprompt version  %s\nembedded suite  %s (%d incidents)\n",
		v.Format, v.Renderer, v.Rubric, v.Prompt, v.Suite, v.Tasks)
	return nil
}

func (e *env) versionCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print srezc's version, the IR, renderer, rubric and prompt versions, and the embedded suite's hash",
		Long: `Print the versions every result record carries (srezc, IR format, renderer,
rubric, LLM prompt), the Go module version and toolchain the binary was
built from, and the hash of the suite built into the binary (what srezc
eval with no PATH runs). srezc --version prints the same.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return e.printVersion(asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return c
}
