package compiler_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/runtime"
)

func TestZZDebug(t *testing.T) {
	id := os.Getenv("ZZ_TASK")
	m, _ := lang.Analyze(lang.ScenarioFiles())
	tasks, _ := compiler.CompileWith(m, compiler.Options{KeepUncertified: true})
	for _, tk := range tasks {
		if tk.ID != id {
			continue
		}
		ep := runtime.NewEpisode(tk)
		ep.Reset(1)
		acts := strings.Split(os.Getenv("ZZ_ACTS"), ";;")
		if os.Getenv("ZZ_ACTS") == "" {
			acts = tk.Expert[:len(tk.Expert)-1]
		}
		for _, s := range acts {
			a := compiler.BindText(tk, s)
			ep.Step(&a)
		}
		for k := 0; k < 10; k++ {
			row := ep.Row()
			var bad []string
			for si := range tk.Slots {
				if tk.SlotAnomalous(runtime.SlotID(si), row) {
					bad = append(bad, fmt.Sprintf("%s.%s=%v", tk.Services[tk.Slots[si].Service].Name, tk.Slots[si].Name, tk.ValueOf(tk.Slots[si].Kind, row[si])))
				}
			}
			fmt.Println("tick", ep.Tick(), "mitigated", ep.Mitigated(), bad)
			ep.Advance()
		}
	}
}
