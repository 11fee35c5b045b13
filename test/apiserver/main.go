// Command crdx-apiserver runs a real apiextensions-apiserver (the component of
// kube-apiserver that serves CustomResourceDefinitions and custom resources)
// backed by an embedded etcd, on 127.0.0.1 only. It is a test fixture for
// kubectl-crdx's differential tests and is not part of the product.
//
// Usage:
//
//	crdx-apiserver --dir DIR [--port N] [--exit-on-stdin-close] [--exit-with-parent] [apiserver flags...]
//
// It writes DIR/kubeconfig, DIR/ca.crt and, once /readyz answers and the CRD
// API is served, DIR/ready.json. It stops on SIGTERM/SIGINT.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	extensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "crdx-apiserver: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	started := time.Now()

	// Never let client-go fall back to an in-cluster configuration: this server
	// must not talk to anything but itself and its own etcd.
	os.Unsetenv("KUBERNETES_SERVICE_HOST")
	os.Unsetenv("KUBERNETES_SERVICE_PORT")

	o := options.NewCustomResourceDefinitionsServerOptions(os.Stderr, os.Stderr)

	fs := pflag.NewFlagSet("crdx-apiserver", pflag.ContinueOnError)
	dir := fs.String("dir", "", "state directory (created if needed): kubeconfig, ca.crt, ready.json, etcd data")
	port := fs.Int("port", 0, "port to serve on at 127.0.0.1 (0 = pick a free one)")
	exitOnStdinClose := fs.Bool("exit-on-stdin-close", false, "stop when standard input reaches EOF (e.g. the parent process died)")
	exitWithParent := fs.Bool("exit-with-parent", false, "stop when the parent process goes away")
	etcdLogLevel := fs.String("etcd-log-level", "error", "log level of the embedded etcd")
	keepEtcdData := fs.Bool("keep-etcd-data", false, "do not delete the etcd data directory on exit")
	// All upstream apiextensions-apiserver flags (e.g. --feature-gates,
	// --emulated-version) are accepted too; the serving, etcd and
	// authentication settings are overridden below.
	o.AddFlags(fs)
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	fs.AddGoFlagSet(klogFlags)
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("--dir is required")
	}
	stateDir, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return err
	}
	readyPath := filepath.Join(stateDir, "ready.json")
	kubeconfigPath := filepath.Join(stateDir, "kubeconfig")
	_ = os.Remove(readyPath)
	defer os.Remove(readyPath)

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	watchForStop(cancel, *exitOnStdinClose, *exitWithParent)

	// 1. etcd
	etcdDir, err := os.MkdirTemp(stateDir, "etcd-")
	if err != nil {
		return err
	}
	if !*keepEtcdData {
		defer os.RemoveAll(etcdDir)
	}
	etcd, etcdURL, err := startEtcd(etcdDir, *etcdLogLevel)
	if err != nil {
		return err
	}
	defer etcd.Close()
	klog.Infof("embedded etcd ready at %s (%s)", etcdURL, time.Since(started).Round(time.Millisecond))

	// 2. serving certificate and listener
	certs, err := writeServingCerts(stateDir)
	if err != nil {
		return fmt.Errorf("generating serving certificates: %w", err)
	}
	listener, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listening on 127.0.0.1:%d: %w", *port, err)
	}
	actualPort := listener.Addr().(*net.TCPAddr).Port
	serverURL := "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(actualPort))
	loopbackIP := net.ParseIP("127.0.0.1")

	// 3. apiserver options
	if err := applyComponentGlobals(o); err != nil {
		return err
	}
	o.ServerRunOptions.AdvertiseAddress = loopbackIP
	ss := o.RecommendedOptions.SecureServing
	ss.Listener = listener
	ss.BindAddress = loopbackIP
	ss.BindPort = actualPort
	ss.ExternalAddress = loopbackIP
	ss.ServerCert.CertKey.CertFile = certs.CertFile
	ss.ServerCert.CertKey.KeyFile = certs.KeyFile
	ss.ServerCert.CertDirectory = ""
	o.RecommendedOptions.Etcd.StorageConfig.Transport.ServerList = []string{etcdURL}
	// No kube-apiserver to delegate to: authentication and authorization work
	// without a remote kubeconfig (the privileged loopback token is accepted
	// and system:masters is always allowed); requests by anyone else are denied.
	o.RecommendedOptions.Authentication.RemoteKubeConfigFileOptional = true
	o.RecommendedOptions.Authentication.SkipInClusterLookup = true
	o.RecommendedOptions.Authorization.RemoteKubeConfigFileOptional = true
	// These need a kube-apiserver (core API informers, flow control objects,
	// admission webhooks and policies): off for a standalone server.
	o.RecommendedOptions.CoreAPI = nil
	o.RecommendedOptions.Admission = nil
	o.RecommendedOptions.Features.EnablePriorityAndFairness = false

	if err := o.Complete(); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return err
	}

	config, err := newConfig(o)
	if err != nil {
		return err
	}
	server, err := config.Complete().New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return fmt.Errorf("creating the apiserver: %w", err)
	}
	installRootDiscovery(server)
	token := server.GenericAPIServer.LoopbackClientConfig.BearerToken
	if token == "" {
		return errors.New("the apiserver has no loopback bearer token")
	}
	if err := writeKubeconfig(kubeconfigPath, serverURL, certs.CAPEM, token); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}

	// 4. run
	runErr := make(chan error, 1)
	go func() {
		runErr <- runServer(ctx, server.GenericAPIServer)
	}()

	readyErr := make(chan error, 1)
	go func() {
		readyErr <- waitUntilReady(ctx, serverURL, certs.CAPEM, token)
	}()

	for {
		select {
		case err := <-readyErr:
			if err != nil {
				if ctx.Err() != nil {
					readyErr = nil
					continue
				}
				cancel(err)
				<-runErr
				return err
			}
			info := readyInfo{Server: serverURL, Token: token, CAFile: certs.CAFile, Kubeconfig: kubeconfigPath, PID: os.Getpid()}
			if err := writeReady(readyPath, info); err != nil {
				cancel(err)
				<-runErr
				return fmt.Errorf("writing ready.json: %w", err)
			}
			klog.Infof("crdx-apiserver ready at %s in %s; kubeconfig %s", serverURL, time.Since(started).Round(time.Millisecond), kubeconfigPath)
			readyErr = nil
		case err := <-runErr:
			_ = os.Remove(readyPath)
			if ctx.Err() != nil {
				klog.Infof("crdx-apiserver stopped (%v)", context.Cause(ctx))
				return nil
			}
			if err == nil {
				err = errors.New("the apiserver stopped unexpectedly")
			}
			return err
		}
	}
}

// newConfig builds the apiextensions-apiserver configuration from the options,
// like the upstream command does, but without the parts that expect a
// kube-apiserver next to it (a core API informer factory to resolve webhook
// services): service references cannot be resolved by a standalone server.
func newConfig(o *options.CustomResourceDefinitionsServerOptions) (*extensionsapiserver.Config, error) {
	serverConfig := genericapiserver.NewRecommendedConfig(extensionsapiserver.Codecs)
	if err := o.ServerRunOptions.ApplyTo(&serverConfig.Config); err != nil {
		return nil, err
	}
	adjustRecommendedConfig(serverConfig)
	if err := o.RecommendedOptions.ApplyTo(serverConfig); err != nil {
		return nil, err
	}
	if err := o.APIEnablement.ApplyTo(&serverConfig.Config, extensionsapiserver.DefaultAPIResourceConfigSource(), extensionsapiserver.Scheme); err != nil {
		return nil, err
	}
	definitions := openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
	serverConfig.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(definitions, openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme))
	serverConfig.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(definitions, openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme, scheme.Scheme))

	return &extensionsapiserver.Config{
		GenericConfig: serverConfig,
		ExtraConfig: extensionsapiserver.ExtraConfig{
			CRDRESTOptionsGetter: options.NewCRDRESTOptionsGetter(*o.RecommendedOptions.Etcd, serverConfig.ResourceTransformers, serverConfig.StorageObjectCountTracker),
			ServiceResolver:      noServices{},
			AuthResolverWrapper:  webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, nil, serverConfig.LoopbackClientConfig, noopTracerProvider()),
		},
	}, nil
}

// noServices resolves no Service: there is no core API in this server.
type noServices struct{}

func (noServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, fmt.Errorf("service %s/%s:%d cannot be resolved: this test apiserver has no core API", namespace, name, port)
}

// waitUntilReady polls /readyz and then the CRD list until both answer 200.
func waitUntilReady(ctx context.Context, serverURL string, caPEM []byte, token string) error {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return errors.New("bad CA PEM")
	}
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	defer client.CloseIdleConnections()
	get := func(path string) (int, string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, serverURL+path, nil)
		if err != nil {
			return 0, err.Error()
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp.StatusCode, string(body)
	}
	deadline := time.Now().Add(3 * time.Minute)
	var lastStatus int
	var lastBody string
	for _, path := range []string{"/readyz", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=1"} {
		for {
			lastStatus, lastBody = get(path)
			if lastStatus == http.StatusOK {
				break
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("GET %s did not answer 200 in time; last answer %d: %s", path, lastStatus, lastBody)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// watchForStop cancels ctx on SIGTERM/SIGINT and, if asked, when stdin reaches
// EOF or the parent process goes away. A second signal exits at once.
func watchForStop(cancel context.CancelCauseFunc, onStdinClose, withParent bool) {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		s := <-signals
		klog.Infof("received %v, shutting down", s)
		cancel(fmt.Errorf("signal %v", s))
		<-signals
		fmt.Fprintln(os.Stderr, "crdx-apiserver: second signal, exiting now")
		os.Exit(1)
	}()
	if onStdinClose {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			cancel(errors.New("stdin closed"))
		}()
	}
	if withParent {
		parent := os.Getppid()
		go func() {
			for {
				if os.Getppid() != parent {
					cancel(errors.New("parent process exited"))
					return
				}
				time.Sleep(500 * time.Millisecond)
			}
		}()
	}
}
