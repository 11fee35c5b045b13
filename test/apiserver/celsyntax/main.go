// Command celsyntax prints cel-go's parse error text for CEL expressions, as the API server's
// stored-expressions environment parses them (the reference of
// test/conformance/cel-syntax.conformance.test.ts and of the table in
// test/schema/cel/syntax-errors.test.ts). Input: one JSON string per line; output: one JSON object
// per line, {"expr": …, "err": text or null}.
//
//	cd test/apiserver && go run ./celsyntax < exprs.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"os"

	"k8s.io/apiserver/pkg/cel/environment"
)

func main() {
	env := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).StoredExpressionsEnv()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var expr string
		if err := json.Unmarshal(in.Bytes(), &expr); err != nil {
			panic(err)
		}
		var text any
		if _, iss := env.Parse(expr); iss != nil && iss.Err() != nil {
			text = iss.Err().Error()
		}
		if err := out.Encode(map[string]any{"expr": expr, "err": text}); err != nil {
			panic(err)
		}
	}
}
