package main

// The no-op tracer the webhook resolver wrapper is given. Its package moved between the
// OpenTelemetry releases that Kubernetes minors pin, so minors/v1.NN may replace this file.

import (
	oteltrace "go.opentelemetry.io/otel/trace"
	noopoteltrace "go.opentelemetry.io/otel/trace/noop"
)

func noopTracerProvider() oteltrace.TracerProvider { return noopoteltrace.NewTracerProvider() }
