package compiler

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr/ast"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// scope resolves the names of one expression to slots.
type scope struct {
	b   *build
	svc int // service instance whose names are bare; -1 at incident level
	// prevAll makes every load read the previous row (state next values).
	prevAll bool
	// at is where a quantity's update comes in the order of every
	// service's quantities (build.quantityAt), or past them all for the
	// updates after them: a read of another service's quantity sees this
	// tick's value when that quantity comes earlier, the last tick's
	// otherwise. Zero reads the last tick's, as a state's next value does.
	at     int
	params map[string]value.Value
	// opArgs are the args of the operation whose sets are lowered
	// (arg.NAME loads the call's argument).
	opArgs []string
}

type lowerError struct {
	node ast.Node
	msg  string
}

// lower appends code for a checked expression whose result has kind want
// (an int result is widened when want is float).
func (s *scope) lower(x *lang.Expr, want value.Kind) (engine.Span, *lowerError) {
	b := s.b
	start := int32(len(b.t.Code))
	got, err := s.node(x.Node)
	if err != nil {
		b.t.Code = b.t.Code[:start]
		return engine.Span{}, err
	}
	if want == value.Float && got == value.Int {
		b.emit(engine.OpIntToFloat, 0, 0)
	}
	return engine.Span{Start: start, End: int32(len(b.t.Code))}, nil
}

func kindOf(n ast.Node) value.Kind { return lang.KindOfType(n.Type()) }

func (s *scope) node(n ast.Node) (value.Kind, *lowerError) {
	b := s.b
	switch x := n.(type) {
	case *ast.IntegerNode:
		b.emit(engine.OpConst, 0, uint64(int64(x.Value)))
		return value.Int, nil
	case *ast.FloatNode:
		b.emit(engine.OpConst, 0, math.Float64bits(x.Value))
		return value.Float, nil
	case *ast.BoolNode:
		b.emit(engine.OpConst, 0, bw(x.Value))
		return value.Bool, nil
	case *ast.StringNode:
		b.emitString(x.Value)
		return value.String, nil
	case *ast.IdentifierNode:
		var buf [1]string
		buf[0] = x.Value
		return s.path(n, buf[:])
	case *ast.MemberNode:
		var buf [4]string
		path, ok := memberPath(x, buf[:0])
		if !ok {
			return 0, &lowerError{n, "unsupported member access"}
		}
		return s.path(n, path)
	case *ast.UnaryNode:
		k, err := s.node(x.Node)
		if err != nil {
			return 0, err
		}
		switch x.Operator {
		case "!", "not":
			b.emit(engine.OpNot, 0, 0)
		case "-":
			if k == value.Float {
				b.emit(engine.OpNegF, 0, 0)
			} else {
				b.emit(engine.OpNegI, 0, 0)
			}
		}
		return k, nil
	case *ast.BinaryNode:
		return s.binary(x)
	case *ast.ConditionalNode:
		want := kindOf(x)
		if want == value.Null {
			return 0, &lowerError{n, "both arms of \"? :\" must have one type"}
		}
		if _, err := s.node(x.Cond); err != nil {
			return 0, err
		}
		if err := s.operand(x.Exp1, want); err != nil {
			return 0, err
		}
		if err := s.operand(x.Exp2, want); err != nil {
			return 0, err
		}
		b.emit(engine.OpSelect, 0, 0)
		return want, nil
	case *ast.BuiltinNode:
		return s.builtin(x)
	case *ast.CallNode:
		if len(x.Arguments) != 3 {
			return 0, &lowerError{n, "clamp takes three arguments"}
		}
		for _, i := range []int{0, 2} {
			if err := s.operand(x.Arguments[i], value.Float); err != nil {
				return 0, err
			}
			if i == 0 {
				continue
			}
		}
		b.emit(engine.OpMinF, 0, 0)
		if err := s.operand(x.Arguments[1], value.Float); err != nil {
			return 0, err
		}
		b.emit(engine.OpMaxF, 0, 0)
		return value.Float, nil
	}
	return 0, &lowerError{n, "unsupported expression"}
}

// operand lowers n and widens it to want.
func (s *scope) operand(n ast.Node, want value.Kind) *lowerError {
	k, err := s.node(n)
	if err != nil {
		return err
	}
	if want == value.Float && k == value.Int {
		s.b.emit(engine.OpIntToFloat, 0, 0)
	}
	return nil
}

// memberPath appends the names of a.b.c to dst (a buffer the caller keeps
// on its stack: lowering walks thousands of these per incident).
func memberPath(m *ast.MemberNode, dst []string) ([]string, bool) {
	prop, ok := m.Property.(*ast.StringNode)
	if !ok {
		return nil, false
	}
	switch inner := m.Node.(type) {
	case *ast.IdentifierNode:
		return append(dst, inner.Value, prop.Value), true
	case *ast.MemberNode:
		p, ok := memberPath(inner, dst)
		if !ok {
			return nil, false
		}
		return append(p, prop.Value), true
	}
	return nil, false
}

func (s *scope) binary(x *ast.BinaryNode) (value.Kind, *lowerError) {
	b := s.b
	lk, rk := kindOf(x.Left), kindOf(x.Right)
	num := lk.Numeric() && rk.Numeric()
	float := lk == value.Float || rk == value.Float
	pick := func(i, f engine.OpCode) engine.OpCode {
		if float {
			return f
		}
		return i
	}
	both := func(k value.Kind) *lowerError {
		if err := s.operand(x.Left, k); err != nil {
			return err
		}
		return s.operand(x.Right, k)
	}
	swapped := func(k value.Kind) *lowerError {
		if err := s.operand(x.Right, k); err != nil {
			return err
		}
		return s.operand(x.Left, k)
	}
	wide := value.Int
	if float {
		wide = value.Float
	}
	switch x.Operator {
	case "+", "-", "*", "%":
		if !num {
			return 0, &lowerError{x, "arithmetic needs numbers"}
		}
		if err := both(wide); err != nil {
			return 0, err
		}
		switch x.Operator {
		case "+":
			b.emit(pick(engine.OpAddI, engine.OpAddF), 0, 0)
		case "-":
			b.emit(pick(engine.OpSubI, engine.OpSubF), 0, 0)
		case "*":
			b.emit(pick(engine.OpMulI, engine.OpMulF), 0, 0)
		case "%":
			if float {
				return 0, &lowerError{x, "% needs ints"}
			}
			b.emit(engine.OpModI, 0, 0)
		}
		return wide, nil
	case "/", "**", "^":
		if err := both(value.Float); err != nil {
			return 0, err
		}
		if x.Operator == "/" {
			b.emit(engine.OpDivF, 0, 0)
		} else {
			b.emit(engine.OpPowF, 0, 0)
		}
		return value.Float, nil
	case "<", "<=":
		if err := both(wide); err != nil {
			return 0, err
		}
		if x.Operator == "<" {
			b.emit(pick(engine.OpLtI, engine.OpLtF), 0, 0)
		} else {
			b.emit(pick(engine.OpLeI, engine.OpLeF), 0, 0)
		}
		return value.Bool, nil
	case ">", ">=":
		if err := swapped(wide); err != nil {
			return 0, err
		}
		if x.Operator == ">" {
			b.emit(pick(engine.OpLtI, engine.OpLtF), 0, 0)
		} else {
			b.emit(pick(engine.OpLeI, engine.OpLeF), 0, 0)
		}
		return value.Bool, nil
	case "==", "!=":
		switch {
		case num:
			if err := both(wide); err != nil {
				return 0, err
			}
			b.emit(pick(engine.OpEq, engine.OpEqF), 0, 0)
		case lk == rk && lk == value.String:
			if err := both(lk); err != nil {
				return 0, err
			}
			b.emit(engine.OpEqS, 0, 0)
		case lk == rk:
			if err := both(lk); err != nil {
				return 0, err
			}
			b.emit(engine.OpEq, 0, 0)
		default:
			// Values of different kinds are never equal (native equality).
			b.emit(engine.OpConst, 0, 0)
		}
		if x.Operator == "!=" {
			b.emit(engine.OpNot, 0, 0)
		}
		return value.Bool, nil
	case "&&", "and", "||", "or":
		if err := both(value.Bool); err != nil {
			return 0, err
		}
		if x.Operator == "&&" || x.Operator == "and" {
			b.emit(engine.OpAnd, 0, 0)
		} else {
			b.emit(engine.OpOr, 0, 0)
		}
		return value.Bool, nil
	}
	return 0, &lowerError{x, "unsupported operator " + x.Operator}
}

func (s *scope) builtin(x *ast.BuiltinNode) (value.Kind, *lowerError) {
	b := s.b
	res := kindOf(x)
	switch x.Name {
	case "abs", "float", "int", "floor":
		if len(x.Arguments) != 1 {
			return 0, &lowerError{x, x.Name + " takes one argument"}
		}
		k, err := s.node(x.Arguments[0])
		if err != nil {
			return 0, err
		}
		switch x.Name {
		case "abs":
			if k == value.Float {
				b.emit(engine.OpAbsF, 0, 0)
			} else {
				b.emit(engine.OpAbsI, 0, 0)
			}
			return k, nil
		case "float":
			if k == value.Int {
				b.emit(engine.OpIntToFloat, 0, 0)
			}
			return value.Float, nil
		case "int":
			if k == value.Float {
				b.emit(engine.OpTruncF, 0, 0)
			}
			return value.Int, nil
		case "floor":
			if k == value.Float {
				b.emit(engine.OpFloor, 0, 0)
				if res == value.Float {
					b.emit(engine.OpIntToFloat, 0, 0)
					return value.Float, nil
				}
				return value.Int, nil
			}
			return k, nil
		}
	case "min", "max":
		if len(x.Arguments) < 2 {
			return 0, &lowerError{x, x.Name + " takes two or more arguments"}
		}
		float := false
		for _, a := range x.Arguments {
			float = float || kindOf(a) == value.Float
		}
		want := value.Int
		op := engine.OpMinI
		if float {
			want, op = value.Float, engine.OpMinF
		}
		if x.Name == "max" {
			op++
		}
		for i, a := range x.Arguments {
			if err := s.operand(a, want); err != nil {
				return 0, err
			}
			if i > 0 {
				b.emit(op, 0, 0)
			}
		}
		return want, nil
	}
	return 0, &lowerError{x, "unsupported function " + x.Name}
}

// path resolves a name or member chain.
func (s *scope) path(n ast.Node, p []string) (value.Kind, *lowerError) {
	b := s.b
	load := func(svc int, name, class string, prev bool) (value.Kind, *lowerError) {
		slot, ok := b.slotIndex[slotKey{svc, class, name}]
		if !ok {
			return 0, &lowerError{n, fmt.Sprintf("no %s %q", class, name)}
		}
		op := engine.OpLoad
		if prev || s.prevAll {
			op = engine.OpLoadPrev
		}
		b.emit(op, int32(slot), 0)
		return b.t.Slots[slot].Kind, nil
	}
	if s.svc < 0 {
		// Incident scope: healthy, fixed, or SERVICE.…
		switch {
		case len(p) == 1 && p[0] == "healthy":
			b.emitHealthy()
			return value.Bool, nil
		case len(p) == 1 && p[0] == "fixed":
			if err := b.emitFixed(); err != nil {
				return 0, err
			}
			return value.Bool, nil
		}
		svc := b.serviceIndex(p[0])
		if svc < 0 || len(p) < 2 {
			return 0, &lowerError{n, "unknown service " + p[0]}
		}
		return s.local(n, svc, p[1:], load)
	}
	if p[0] == "param" && len(p) == 2 {
		v, ok := s.params[p[1]]
		if !ok {
			return 0, &lowerError{n, "unknown parameter " + p[1]}
		}
		b.emitValue(v)
		return v.K, nil
	}
	if p[0] == "arg" && len(p) == 2 {
		for i, a := range s.opArgs {
			if a == p[1] {
				b.emit(engine.OpArg, int32(i), 0)
				return value.String, nil
			}
		}
		return 0, &lowerError{n, "unknown operation argument " + p[1]}
	}
	if p[0] == "traffic" && len(p) == 1 {
		b.emit(engine.OpConst, 0, math.Float64bits(b.traffic))
		return value.Float, nil
	}
	if len(p) == 2 {
		if role := b.roleTarget(s.svc, p[0]); role >= 0 {
			if p[1] == "status" {
				return load(role, "status", "status", true)
			}
			at, ok := b.quantityAt[slotKey{role, "quantity", p[1]}]
			return load(role, p[1], "quantity", !ok || at >= s.at)
		}
	}
	return s.local(n, s.svc, p, load)
}

func (s *scope) local(n ast.Node, svc int, p []string, load func(int, string, string, bool) (value.Kind, *lowerError)) (value.Kind, *lowerError) {
	switch {
	case len(p) == 2 && p[0] == "config":
		return load(svc, p[1], "config", false)
	case len(p) == 2 && p[0] == "state":
		return load(svc, p[1], "state", false)
	case len(p) == 1 && p[0] == "status":
		return load(svc, "status", "status", false)
	case len(p) == 1:
		return load(svc, p[0], "quantity", false)
	}
	return 0, &lowerError{n, "unknown name"}
}

func bw(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
