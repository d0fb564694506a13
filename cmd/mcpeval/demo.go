package main

import "github.com/mcpeval/mcpeval/internal/provider"

// demoSuiteRefusal refuses to spend a real model's tokens on the demo
// suite by default: with a real (paid or local) model and no --suite, run
// would measure the embedded household suite, which is rarely what someone
// who named a real model meant. Naming the suite (--suite household)
// says it was. model is the --model spec; suiteFlag is --suite as given.
func demoSuiteRefusal(model, suiteFlag string) error {
	if suiteFlag != "" || !provider.Real(model) {
		return nil
	}
	return usagef("%s is a real model and no --suite was given, so it would be asked the embedded demo suite (household) and nothing has been sent: name a suite with --suite PATH, or --suite household to measure the demo", model)
}
