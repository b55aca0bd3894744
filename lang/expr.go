package lang

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	exprchecker "github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/types"
	"github.com/srezc/srezc/value"
)

// Builtins are the functions a runtime expression may call; the compiler
// lowers exactly these.
var Builtins = []string{"abs", "clamp", "float", "floor", "int", "max", "min"}

func typeOfKind(k value.Kind) types.Type {
	switch k {
	case value.Int:
		return types.Int
	case value.Float:
		return types.Float64
	case value.Bool:
		return types.Bool
	case value.String:
		return types.String
	}
	return types.Any
}

// KindOfType maps a checked expr node type back to a value kind.
func KindOfType(t reflect.Type) value.Kind {
	if t == nil {
		return value.Null
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return value.Int
	case reflect.Float64, reflect.Float32:
		return value.Float
	case reflect.Bool:
		return value.Bool
	case reflect.String:
		return value.String
	}
	return value.Null
}

var clampFn = expr.Function("clamp", func(params ...any) (any, error) { return nil, nil },
	new(func(float64, float64, float64) float64))

// exprScope is an expression environment with expr's configuration for it.
// expr.Compile builds a configuration from scratch for every expression:
// its table of builtins and the type description of the whole environment
// (its Nature), which cost more than parsing and checking a short
// expression. A scope builds that once for all the expressions checked in
// one environment. Its configuration caches types as it checks, so a scope
// belongs to one checker and is not shared between goroutines.
type exprScope struct {
	env    types.Map
	config *conf.Config
}

func newExprScope(env types.Map) *exprScope {
	config := conf.CreateNew()
	for _, op := range []expr.Option{expr.Env(env), clampFn, expr.Optimize(false), expr.DisableAllBuiltins(),
		expr.EnableBuiltin("abs"), expr.EnableBuiltin("float"), expr.EnableBuiltin("floor"),
		expr.EnableBuiltin("int"), expr.EnableBuiltin("max"), expr.EnableBuiltin("min")} {
		op(config)
	}
	// What expr.Compile does between its options and its parse.
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()
	return &exprScope{env: env, config: config}
}

// checkExpr parses and type-checks src in scope and checks that it uses
// only what the runtime can run, and that its type is want (value.Null:
// any scalar). Only the checked tree is kept (the compiler lowers it), so
// expr's bytecode is not generated. Errors are re-anchored at their exact
// range inside the HCL file.
func (c *checker) checkExpr(x *Expr, scope *exprScope, want value.Kind, what string) bool {
	if x == nil {
		return false
	}
	env := scope.env
	tree, err := exprchecker.ParseCheck(x.Src, scope.config)
	if err != nil {
		from, to := 0, len(x.Src)
		msg := err.Error()
		if fe, ok := err.(*file.Error); ok {
			msg = fe.Message
			from = runeToByte(x.Src, fe.From)
			to = runeToByte(x.Src, fe.To)
			if fe.From == 0 && fe.To == 0 && fe.Column > 0 {
				from = runeToByte(x.Src, fe.Column)
				to = from
			}
			if to <= from {
				to = wordEnd(x.Src, from)
			}
		}
		c.exprErr(x, from, to, "Invalid expression", fixExprMessage(msg, env, x.Src, from, to))
		return false
	}
	node := tree.Node
	ok := true
	ast.Walk(&node, &subsetVisitor{report: func(n ast.Node, msg string) {
		loc := n.Location()
		c.exprErr(x, runeToByte(x.Src, loc.From), runeToByte(x.Src, max(loc.To, loc.From+1)), "Unsupported in a runtime expression", msg)
		ok = false
	}})
	if !ok {
		return false
	}
	got := KindOfType(node.Type())
	if got == value.Null {
		c.exprErr(x, 0, len(x.Src), "Invalid expression type", fmt.Sprintf("The %s has no single type; give both arms of \"? :\" one type.", what))
		return false
	}
	if want != value.Null && got != want && !(want == value.Float && got == value.Int) {
		c.exprErr(x, 0, len(x.Src), "Invalid expression type", fmt.Sprintf("The %s must be %s, but this expression is %s.", what, article(want.String()), article(got.String())))
		return false
	}
	x.Node = node
	x.Kind = got
	return true
}

// fixExprMessage rewrites expr's messages about unknown names in the
// language's words, with a suggestion. src[from:to] is the name's bytes.
func fixExprMessage(msg string, env types.Map, src string, from, to int) string {
	if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
		if to < len(src) && strings.HasPrefix(strings.TrimLeft(src[to:], " \t"), "(") {
			return fmt.Sprintf("There is no function %q; the functions are %s.", name, strings.Join(Builtins, ", "))
		}
		return fmt.Sprintf("There is no name %q here.%s", name, didYouMean(name, mapKeys(env)))
	}
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		// The chain before the field, such as "config." or "web.config.",
		// names the map the field was looked up in.
		i := from
		for i > 0 && isWordByte(src[i-1]) {
			i--
		}
		chain := strings.Split(strings.TrimSuffix(src[i:from], "."), ".")
		var scope types.Type = env
		for _, part := range chain {
			m, ok := scope.(types.Map)
			if !ok {
				scope = nil
				break
			}
			scope = m[part]
		}
		if m, ok := scope.(types.Map); ok && from > i {
			return fmt.Sprintf("%q has no field %q.%s", strings.Join(chain, "."), name, didYouMean(name, mapKeys(m)))
		}
	}
	return msg
}

func mapKeys(m types.Map) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	return out
}

func runeToByte(s string, r int) int {
	b := 0
	for i := 0; i < r && b < len(s); i++ {
		_, n := utf8.DecodeRuneInString(s[b:])
		b += n
	}
	return b
}

func wordEnd(s string, from int) int {
	i := from
	for i < len(s) && (isWordByte(s[i])) {
		i++
	}
	if i == from && i < len(s) {
		i++
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (c *checker) exprErr(x *Expr, from, to int, summary, detail string) {
	r := x.Range
	if x.Exact {
		f := c.files[x.Range.Filename]
		if f != nil {
			r = rangeOf(f, x.Range.Start.Byte+from, x.Range.Start.Byte+to)
		}
	}
	c.errRange(r, summary, detail)
}

// subsetVisitor reports expr constructs the runtime does not run.
type subsetVisitor struct {
	report func(ast.Node, string)
}

func (v *subsetVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.StringNode, *ast.ConditionalNode:
	case *ast.MemberNode:
		if n.Optional || n.Method {
			v.report(n, "Optional chaining and methods are not available.")
		}
		if _, ok := n.Property.(*ast.StringNode); !ok {
			v.report(n, "Only fixed member names such as config.pool_size are available.")
		}
	case *ast.UnaryNode:
		switch n.Operator {
		case "!", "not", "-", "+":
		default:
			v.report(n, fmt.Sprintf("The operator %q is not available.", n.Operator))
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "and", "or", "**", "^":
		default:
			v.report(n, fmt.Sprintf("The operator %q is not available.", n.Operator))
		}
	case *ast.BuiltinNode:
		if !contains(Builtins, n.Name) {
			v.report(n, fmt.Sprintf("The function %q is not available.", n.Name))
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); !ok || id.Value != "clamp" {
			v.report(n, "Only the functions "+strings.Join(Builtins, ", ")+" are available.")
		}
	default:
		v.report(n, "Only arithmetic, comparisons, logic, \"? :\" and the functions "+strings.Join(Builtins, ", ")+" are available.")
	}
}
