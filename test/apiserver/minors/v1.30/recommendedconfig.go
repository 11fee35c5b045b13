package main

// Kubernetes 1.30 needs two things set on the generic server configuration that later minors
// derive themselves:
//   - RecommendedOptions.ApplyTo makes core API clients from ClientConfig even when the CoreAPI
//     options are off, and panics on a nil one. Those clients serve only priority and fairness and
//     admission, both off here, so a configuration pointing nowhere is enough: nothing connects.
//   - /version answers Config.Version, which apiextensions fills with 0.1 when it is unset (1.31
//     serves the effective version instead): give it the build's version, as kube-apiserver does.

import (
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/rest"
	"k8s.io/component-base/version"
)

func adjustRecommendedConfig(c *genericapiserver.RecommendedConfig) {
	c.ClientConfig = &rest.Config{Host: "https://127.0.0.1:1"}
	info := version.Get()
	c.Version = &info
}
