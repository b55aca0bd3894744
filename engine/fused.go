package engine

// Fused instructions. Most update programs apply a binary operation to
// the stack's top and a slot of the current row or a constant ("load;
// const 0.8; ltf"). Prepare rewrites each update's program so that such a
// pair is one instruction: the machine then dispatches about a third fewer
// times per tick, and dispatch is what it spends most on. The rewrite only
// merges an operand push with the binary operation that pops it at once,
// and the machine has no jumps, so every program computes what it did,
// word for word (TestFusedUpdatesMatchTheMachine). Fused codes follow
// OpCount: a task's code never holds them (Validate rejects them), only
// the prepared copy does.
//
// The L form of a binary operation takes its right operand from the
// current row's slot A, the K form from the constant K.
const (
	opAddIL OpCode = OpCount + 1 + iota
	opAddIK
	opSubIL
	opSubIK
	opMulIL
	opMulIK
	opAddFL
	opAddFK
	opSubFL
	opSubFK
	opMulFL
	opMulFK
	opDivFL
	opDivFK
	opLtIL
	opLtIK
	opLeIL
	opLeIK
	opLtFL
	opLtFK
	opLeFL
	opLeFK
	opEqL
	opEqK
	opAndL
	opAndK
	opOrL
	opOrK
	opMinFL
	opMinFK
	opMaxFL
	opMaxFK
	opMinIL
	opMinIK
	opMaxIL
	opMaxIK
)

// fusedForms maps a binary operation to its L and K forms.
var fusedForms = [OpCount][2]OpCode{
	OpAddI: {opAddIL, opAddIK},
	OpSubI: {opSubIL, opSubIK},
	OpMulI: {opMulIL, opMulIK},
	OpAddF: {opAddFL, opAddFK},
	OpSubF: {opSubFL, opSubFK},
	OpMulF: {opMulFL, opMulFK},
	OpDivF: {opDivFL, opDivFK},
	OpLtI:  {opLtIL, opLtIK},
	OpLeI:  {opLeIL, opLeIK},
	OpLtF:  {opLtFL, opLtFK},
	OpLeF:  {opLeFL, opLeFK},
	OpEq:   {opEqL, opEqK},
	OpAnd:  {opAndL, opAndK},
	OpOr:   {opOrL, opOrK},
	OpMinF: {opMinFL, opMinFK},
	OpMaxF: {opMaxFL, opMaxFK},
	OpMinI: {opMinIL, opMinIK},
	OpMaxI: {opMaxIL, opMaxIK},
}

// fuseProgram appends code, fused, to dst.
func fuseProgram(dst []Op, code []Op) []Op {
	for i := 0; i < len(code); i++ {
		op := code[i]
		if (op.Code == OpLoad || op.Code == OpConst) && i+1 < len(code) && code[i+1].Code < OpCount {
			if forms := fusedForms[code[i+1].Code]; forms[0] != 0 {
				f := forms[0]
				if op.Code == OpConst {
					f = forms[1]
				}
				dst = append(dst, Op{Code: f, A: op.A, K: op.K})
				i++
				continue
			}
		}
		dst = append(dst, op)
	}
	return dst
}

// fusedUpdates fuses every update's program: the fused code, and each
// update's span of it.
func fusedUpdates(t *Task) ([]Op, []Span) {
	var code []Op
	spans := make([]Span, len(t.Updates))
	for i, u := range t.Updates {
		if u.Code.Start < 0 || int(u.Code.End) > len(t.Code) || u.Code.Start > u.Code.End {
			continue
		}
		start := len(code)
		code = fuseProgram(code, t.Code[u.Code.Start:u.Code.End])
		spans[i] = Span{int32(start), int32(len(code))}
	}
	return code, spans
}
