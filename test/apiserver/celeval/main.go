// Command celeval evaluates CEL expressions as the API server's CEL does (the stored-expressions
// environment of k8s.io/apiserver at its default compatibility version, with the Kubernetes
// libraries), with the variables s, t, u (string), i, j (int) and d (double). It records the
// reference of test/unit/cel-go-eval.test.ts (see record.mjs beside it). Input: one JSON object per
// line, {"expr", "s", "t", "u", "i", "j", "d"}; output: one JSON object per line, with "type" and
// "value" (fmt's %v of the value), or "err" (an evaluation error), or "compile" / "program" (the
// expression is not one to compare).
//
//	cd test/apiserver && node celeval/record.mjs
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/cel-go/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type input struct {
	Expr string  `json:"expr"`
	S    string  `json:"s"`
	T    string  `json:"t"`
	U    string  `json:"u"`
	I    int64   `json:"i"`
	J    int64   `json:"j"`
	D    float64 `json:"d"`
}

func main() {
	base := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).StoredExpressionsEnv()
	env, err := base.Extend(cel.Variable("s", cel.StringType), cel.Variable("t", cel.StringType), cel.Variable("u", cel.StringType),
		cel.Variable("i", cel.IntType), cel.Variable("j", cel.IntType), cel.Variable("d", cel.DoubleType))
	if err != nil {
		panic(err)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var x input
		if err := json.Unmarshal(in.Bytes(), &x); err != nil {
			panic(err)
		}
		res := map[string]any{}
		ast, iss := env.Compile(x.Expr)
		if iss != nil && iss.Err() != nil {
			res["compile"] = iss.Err().Error()
		} else if prg, err := env.Program(ast, cel.CostLimit(1000000)); err != nil {
			res["program"] = err.Error()
		} else if v, _, err := prg.Eval(map[string]any{"s": x.S, "t": x.T, "u": x.U, "i": x.I, "j": x.J, "d": x.D}); err != nil {
			res["err"] = err.Error()
		} else {
			res["type"] = v.Type().TypeName()
			res["value"] = fmt.Sprintf("%v", v.Value())
		}
		if err := out.Encode(res); err != nil {
			panic(err)
		}
	}
}
