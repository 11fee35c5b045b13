package main

// Adjusts the generic server configuration before the options are applied to it. Nothing to do
// from Kubernetes 1.31 on; minors/v1.30 replaces this file (see there).

import genericapiserver "k8s.io/apiserver/pkg/server"

func adjustRecommendedConfig(*genericapiserver.RecommendedConfig) {}
