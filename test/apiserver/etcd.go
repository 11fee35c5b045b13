package main

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// freeLoopbackPort asks the kernel for an unused TCP port on 127.0.0.1.
// There is a small window between closing the probe listener and etcd binding
// the port; startEtcd retries on failure.
func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// embeddedEtcd is a running in-process etcd.
type embeddedEtcd struct {
	etcd     *embed.Etcd
	logLevel zap.AtomicLevel
}

// Close stops etcd. Its listeners log errors when they are closed under it,
// which is expected here, so logging is turned down first.
func (e *embeddedEtcd) Close() {
	e.logLevel.SetLevel(zapcore.FatalLevel)
	e.etcd.Close()
}

// startEtcd runs a single-member etcd inside this process. Its data lives in
// dataDir; client and peer listeners are bound to 127.0.0.1 on random ports.
// It returns the running server and the client URL the apiserver should use.
func startEtcd(dataDir string, logLevel string) (*embeddedEtcd, string, error) {
	level, err := zap.ParseAtomicLevel(logLevel)
	if err != nil {
		return nil, "", fmt.Errorf("--etcd-log-level: %w", err)
	}
	zcfg := zap.NewProductionConfig()
	zcfg.Level = level
	zcfg.Sampling = nil
	zcfg.OutputPaths = []string{"stderr"}
	zcfg.ErrorOutputPaths = []string{"stderr"}
	logger, err := zcfg.Build()
	if err != nil {
		return nil, "", err
	}
	logger = logger.Named("etcd")
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		e, clientURL, err := startEtcdOnce(dataDir, logger)
		if err == nil {
			return &embeddedEtcd{etcd: e, logLevel: level}, clientURL, nil
		}
		lastErr = err
		// A port race or a half-initialised data dir: start from scratch.
		_ = os.RemoveAll(dataDir)
	}
	return nil, "", fmt.Errorf("starting embedded etcd: %w", lastErr)
}

func startEtcdOnce(dataDir string, logger *zap.Logger) (*embed.Etcd, string, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, "", err
	}
	clientPort, err := freeLoopbackPort()
	if err != nil {
		return nil, "", err
	}
	peerPort, err := freeLoopbackPort()
	if err != nil {
		return nil, "", err
	}
	if peerPort == clientPort {
		return nil, "", fmt.Errorf("got the same port twice")
	}
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(clientPort))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(peerPort))}

	cfg := embed.NewConfig()
	cfg.Name = "crdx"
	cfg.Dir = dataDir
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ListenMetricsUrls = nil
	// Throwaway single-member test store: durability is irrelevant, speed is not.
	cfg.UnsafeNoFsync = true
	// A single member elects itself after one election timeout: keep it short
	// (defaults are 100ms ticks and a 1s timeout) so start-up is quick.
	cfg.TickMs = 10
	cfg.ElectionMs = 100
	cfg.Logger = "zap"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(logger)

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", err
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, "", fmt.Errorf("etcd failed while starting: %v", err)
	case <-time.After(60 * time.Second):
		e.Server.Stop()
		e.Close()
		return nil, "", fmt.Errorf("etcd took more than 60s to become ready")
	}
	return e, clientURL.String(), nil
}
