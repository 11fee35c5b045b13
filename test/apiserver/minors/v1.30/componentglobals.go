package main

// Kubernetes 1.30 has no component globals registry: --feature-gates sets the global feature gate
// directly when the flags are parsed, and there is no --emulated-version. Nothing to apply.

import "k8s.io/apiextensions-apiserver/pkg/cmd/server/options"

func applyComponentGlobals(*options.CustomResourceDefinitionsServerOptions) error { return nil }
