package main

// Wraps the legacy /apis handler with the aggregated-discovery one: up to Kubernetes 1.34 the
// wrapper takes two handlers (1.35 added a peer-aggregated third).

import (
	"net/http"

	"k8s.io/apiserver/pkg/endpoints/discovery/aggregated"
)

func wrapRootDiscovery(legacy, agg http.Handler) *aggregated.WrappedHandler {
	return aggregated.WrapAggregatedDiscoveryToHandler(legacy, agg)
}
