package main

// Applies the --emulated-version / --feature-gates flags kept by the component globals
// registry. Kubernetes 1.31 introduced that registry (1.30 reads feature gates straight from its
// global gate), so minors/v1.30 replaces this file.

import "k8s.io/apiextensions-apiserver/pkg/cmd/server/options"

func applyComponentGlobals(o *options.CustomResourceDefinitionsServerOptions) error {
	return o.ServerRunOptions.ComponentGlobalsRegistry.Set()
}
