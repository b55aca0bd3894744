package engine

import "math"

// OpCode is one instruction of the predicate machine. Every operand type is
// fixed at compile time (lang type-checks with expr), so the machine works on
// raw 64-bit words: ints as int64, floats as IEEE bits, bools as 0/1 and
// strings as StrID.
type OpCode uint8

const (
	OpConst    OpCode = iota // push K
	OpLoad                   // push the current row's slot A
	OpLoadPrev               // push the previous row's slot A
	OpIntToFloat
	OpAddI
	OpSubI
	OpMulI
	OpModI
	OpNegI
	OpAddF
	OpSubF
	OpMulF
	OpDivF
	OpNegF
	OpLtI
	OpLeI
	OpLtF
	OpLeF
	OpEq   // equality of words: ints, bools, task strings
	OpEqF  // float equality
	OpEqS  // string equality (may involve episode strings)
	OpNot  // bool negation
	OpAnd  // eager: operands are side-effect free
	OpOr   //
	OpMinI // two operands
	OpMaxI
	OpMinF
	OpMaxF
	OpAbsI
	OpAbsF
	OpFloor // float → int
	OpPowF
	OpSelect // c ? a : b, with stack [c a b]; both arms are evaluated
	OpTruncF // float → int toward zero
	// OpArg pushes argument A of the operation being applied (a string
	// word); only an operation's assignments use it.
	OpArg
	OpCount // number of opcodes, for validation
)

var opNames = [...]string{
	OpConst: "const", OpLoad: "load", OpLoadPrev: "loadprev", OpIntToFloat: "itof",
	OpAddI: "addi", OpSubI: "subi", OpMulI: "muli", OpModI: "modi", OpNegI: "negi",
	OpAddF: "addf", OpSubF: "subf", OpMulF: "mulf", OpDivF: "divf", OpNegF: "negf",
	OpLtI: "lti", OpLeI: "lei", OpLtF: "ltf", OpLeF: "lef", OpEq: "eq", OpEqF: "eqf", OpEqS: "eqs",
	OpNot: "not", OpAnd: "and", OpOr: "or", OpMinI: "mini", OpMaxI: "maxi", OpMinF: "minf",
	OpMaxF: "maxf", OpAbsI: "absi", OpAbsF: "absf", OpFloor: "floor", OpPowF: "powf",
	OpSelect: "select", OpTruncF: "truncf", OpArg: "arg",
}

func (c OpCode) String() string {
	if int(c) < len(opNames) && opNames[c] != "" {
		return opNames[c]
	}
	return "op?"
}

// Op is one instruction. A is a slot; K is a constant word.
type Op struct {
	Code OpCode `json:"op"`
	A    int32  `json:"a,omitempty"`
	K    uint64 `json:"k,omitempty"`
}

// Span is a half-open range of Task.Code.
type Span struct {
	Start int32 `json:"start"`
	End   int32 `json:"end"`
}

// maxStack bounds every program's stack; Validate rejects deeper programs so
// that eval can use a fixed array and never allocate.
const maxStack = 32

func b2w(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func f2w(f float64) uint64 { return math.Float64bits(f) }
func w2f(w uint64) float64 { return math.Float64frombits(w) }

// eval runs one program over the episode's rows and returns the top of the
// stack. It also runs the prepared updates' fused instructions (fused.go). Products are rounded to
// float64 explicitly so no platform fuses a multiply and an add.
func (e *Episode) eval(code []Op, cur, prev []uint64) uint64 {
	// The stack lives in the episode: a local array would be zeroed on
	// every call, hundreds of times a tick.
	stack := &e.stack
	sp := 0
	for pc := 0; pc < len(code); pc++ {
		op := &code[pc]
		switch op.Code {
		case OpConst:
			stack[sp] = op.K
			sp++
		case OpLoad:
			stack[sp] = cur[op.A]
			sp++
		case OpLoadPrev:
			stack[sp] = prev[op.A]
			sp++
		case OpArg:
			stack[sp] = e.opArgs[op.A]
			sp++
		case OpIntToFloat:
			stack[sp-1] = f2w(float64(int64(stack[sp-1])))
		case OpAddI:
			sp--
			stack[sp-1] = uint64(int64(stack[sp-1]) + int64(stack[sp]))
		case OpSubI:
			sp--
			stack[sp-1] = uint64(int64(stack[sp-1]) - int64(stack[sp]))
		case OpMulI:
			sp--
			stack[sp-1] = uint64(int64(stack[sp-1]) * int64(stack[sp]))
		case OpModI:
			sp--
			d := int64(stack[sp])
			if d == 0 || d == -1 {
				stack[sp-1] = 0
			} else {
				stack[sp-1] = uint64(int64(stack[sp-1]) % d)
			}
		case OpNegI:
			stack[sp-1] = uint64(-int64(stack[sp-1]))
		case OpAddF:
			sp--
			stack[sp-1] = f2w(w2f(stack[sp-1]) + w2f(stack[sp]))
		case OpSubF:
			sp--
			stack[sp-1] = f2w(w2f(stack[sp-1]) - w2f(stack[sp]))
		case OpMulF:
			sp--
			stack[sp-1] = f2w(float64(w2f(stack[sp-1]) * w2f(stack[sp])))
		case OpDivF:
			sp--
			d := w2f(stack[sp])
			if d == 0 {
				// A simulated quantity divided by zero is defined as zero so
				// that no NaN or Inf ever reaches a slot or an observation.
				stack[sp-1] = f2w(0)
			} else {
				stack[sp-1] = f2w(w2f(stack[sp-1]) / d)
			}
		case OpNegF:
			stack[sp-1] = f2w(-w2f(stack[sp-1]))
		case OpLtI:
			sp--
			stack[sp-1] = b2w(int64(stack[sp-1]) < int64(stack[sp]))
		case OpLeI:
			sp--
			stack[sp-1] = b2w(int64(stack[sp-1]) <= int64(stack[sp]))
		case OpLtF:
			sp--
			stack[sp-1] = b2w(w2f(stack[sp-1]) < w2f(stack[sp]))
		case OpLeF:
			sp--
			stack[sp-1] = b2w(w2f(stack[sp-1]) <= w2f(stack[sp]))
		case OpEq:
			sp--
			stack[sp-1] = b2w(stack[sp-1] == stack[sp])
		case OpEqF:
			sp--
			stack[sp-1] = b2w(w2f(stack[sp-1]) == w2f(stack[sp]))
		case OpEqS:
			sp--
			stack[sp-1] = b2w(e.sameString(StrID(stack[sp-1]), StrID(stack[sp])))
		case OpNot:
			stack[sp-1] ^= 1
		case OpAnd:
			sp--
			stack[sp-1] &= stack[sp]
		case OpOr:
			sp--
			stack[sp-1] |= stack[sp]
		case OpMinI:
			sp--
			if int64(stack[sp]) < int64(stack[sp-1]) {
				stack[sp-1] = stack[sp]
			}
		case OpMaxI:
			sp--
			if int64(stack[sp]) > int64(stack[sp-1]) {
				stack[sp-1] = stack[sp]
			}
		case OpMinF:
			sp--
			stack[sp-1] = f2w(math.Min(w2f(stack[sp-1]), w2f(stack[sp])))
		case OpMaxF:
			sp--
			stack[sp-1] = f2w(math.Max(w2f(stack[sp-1]), w2f(stack[sp])))
		case OpAbsI:
			if int64(stack[sp-1]) < 0 {
				stack[sp-1] = uint64(-int64(stack[sp-1]))
			}
		case OpAbsF:
			stack[sp-1] = f2w(math.Abs(w2f(stack[sp-1])))
		case OpFloor:
			stack[sp-1] = uint64(safeInt(math.Floor(w2f(stack[sp-1]))))
		case OpTruncF:
			stack[sp-1] = uint64(safeInt(w2f(stack[sp-1])))
		case OpPowF:
			sp--
			stack[sp-1] = f2w(finite(math.Pow(w2f(stack[sp-1]), w2f(stack[sp]))))
		case OpSelect:
			sp -= 2
			if stack[sp-1] != 0 {
				stack[sp-1] = stack[sp]
			} else {
				stack[sp-1] = stack[sp+1]
			}
		case opAddIL:
			stack[sp-1] = uint64(int64(stack[sp-1]) + int64(cur[op.A]))
		case opAddIK:
			stack[sp-1] = uint64(int64(stack[sp-1]) + int64(op.K))
		case opSubIL:
			stack[sp-1] = uint64(int64(stack[sp-1]) - int64(cur[op.A]))
		case opSubIK:
			stack[sp-1] = uint64(int64(stack[sp-1]) - int64(op.K))
		case opMulIL:
			stack[sp-1] = uint64(int64(stack[sp-1]) * int64(cur[op.A]))
		case opMulIK:
			stack[sp-1] = uint64(int64(stack[sp-1]) * int64(op.K))
		case opAddFL:
			stack[sp-1] = f2w(w2f(stack[sp-1]) + w2f(cur[op.A]))
		case opAddFK:
			stack[sp-1] = f2w(w2f(stack[sp-1]) + w2f(op.K))
		case opSubFL:
			stack[sp-1] = f2w(w2f(stack[sp-1]) - w2f(cur[op.A]))
		case opSubFK:
			stack[sp-1] = f2w(w2f(stack[sp-1]) - w2f(op.K))
		case opMulFL:
			stack[sp-1] = f2w(float64(w2f(stack[sp-1]) * w2f(cur[op.A])))
		case opMulFK:
			stack[sp-1] = f2w(float64(w2f(stack[sp-1]) * w2f(op.K)))
		case opDivFL:
			if d := w2f(cur[op.A]); d != 0 {
				stack[sp-1] = f2w(w2f(stack[sp-1]) / d)
			} else {
				stack[sp-1] = f2w(0)
			}
		case opDivFK:
			if d := w2f(op.K); d != 0 {
				stack[sp-1] = f2w(w2f(stack[sp-1]) / d)
			} else {
				stack[sp-1] = f2w(0)
			}
		case opLtIL:
			stack[sp-1] = b2w(int64(stack[sp-1]) < int64(cur[op.A]))
		case opLtIK:
			stack[sp-1] = b2w(int64(stack[sp-1]) < int64(op.K))
		case opLeIL:
			stack[sp-1] = b2w(int64(stack[sp-1]) <= int64(cur[op.A]))
		case opLeIK:
			stack[sp-1] = b2w(int64(stack[sp-1]) <= int64(op.K))
		case opLtFL:
			stack[sp-1] = b2w(w2f(stack[sp-1]) < w2f(cur[op.A]))
		case opLtFK:
			stack[sp-1] = b2w(w2f(stack[sp-1]) < w2f(op.K))
		case opLeFL:
			stack[sp-1] = b2w(w2f(stack[sp-1]) <= w2f(cur[op.A]))
		case opLeFK:
			stack[sp-1] = b2w(w2f(stack[sp-1]) <= w2f(op.K))
		case opEqL:
			stack[sp-1] = b2w(stack[sp-1] == cur[op.A])
		case opEqK:
			stack[sp-1] = b2w(stack[sp-1] == op.K)
		case opAndL:
			stack[sp-1] &= cur[op.A]
		case opAndK:
			stack[sp-1] &= op.K
		case opOrL:
			stack[sp-1] |= cur[op.A]
		case opOrK:
			stack[sp-1] |= op.K
		case opMinFL:
			stack[sp-1] = f2w(math.Min(w2f(stack[sp-1]), w2f(cur[op.A])))
		case opMinFK:
			stack[sp-1] = f2w(math.Min(w2f(stack[sp-1]), w2f(op.K)))
		case opMaxFL:
			stack[sp-1] = f2w(math.Max(w2f(stack[sp-1]), w2f(cur[op.A])))
		case opMaxFK:
			stack[sp-1] = f2w(math.Max(w2f(stack[sp-1]), w2f(op.K)))
		case opMinIL:
			if y := cur[op.A]; int64(y) < int64(stack[sp-1]) {
				stack[sp-1] = y
			}
		case opMinIK:
			if y := op.K; int64(y) < int64(stack[sp-1]) {
				stack[sp-1] = y
			}
		case opMaxIL:
			if y := cur[op.A]; int64(y) > int64(stack[sp-1]) {
				stack[sp-1] = y
			}
		case opMaxIK:
			if y := op.K; int64(y) > int64(stack[sp-1]) {
				stack[sp-1] = y
			}
		}
	}
	if sp == 0 {
		return 0
	}
	return stack[sp-1]
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

func safeInt(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 9.2e18:
		return math.MaxInt64
	case f <= -9.2e18:
		return math.MinInt64
	}
	return int64(f)
}

// stackEffect is how many words an op pops and pushes; Validate uses it to
// prove that no program can under- or overflow the fixed stack.
func stackEffect(c OpCode) (pop, push int) {
	switch c {
	case OpConst, OpLoad, OpLoadPrev, OpArg:
		return 0, 1
	case OpIntToFloat, OpNegI, OpNegF, OpNot, OpAbsI, OpAbsF, OpFloor, OpTruncF:
		return 1, 1
	case OpSelect:
		return 3, 1
	}
	return 2, 1
}
