package main

// Runs the prepared apiserver until ctx ends: Kubernetes 1.30 has only Run(stopCh).

import (
	"context"

	genericapiserver "k8s.io/apiserver/pkg/server"
)

func runServer(ctx context.Context, s *genericapiserver.GenericAPIServer) error {
	return s.PrepareRun().Run(ctx.Done())
}
