package main

// Wraps the legacy /apis handler with the aggregated-discovery one. Kubernetes 1.35 added a third
// (peer-aggregated) handler argument, nil here; minors up to 1.34 replace this file with the
// two-argument call.

import (
	"net/http"

	"k8s.io/apiserver/pkg/endpoints/discovery/aggregated"
)

func wrapRootDiscovery(legacy, agg http.Handler) *aggregated.WrappedHandler {
	return aggregated.WrapAggregatedDiscoveryToHandler(legacy, agg, nil)
}
