package main

// Runs the prepared apiserver until ctx ends. RunWithContext arrived in Kubernetes 1.31; 1.30
// has only Run(stopCh), so minors/v1.30 replaces this file.

import (
	"context"

	genericapiserver "k8s.io/apiserver/pkg/server"
)

func runServer(ctx context.Context, s *genericapiserver.GenericAPIServer) error {
	return s.PrepareRun().RunWithContext(ctx)
}
