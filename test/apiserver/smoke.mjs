#!/usr/bin/env node
// Smoke test of the test apiserver: starts it, exercises the CRD API and the
// custom resource endpoints the differential tests rely on, prints what the
// server answered, stops it and checks that nothing is left running.
//
//   node test/apiserver/smoke.mjs [--verbose]   (--verbose shows the server log)

import fs from "node:fs";
import https from "node:https";
import { startServer } from "./harness.mjs";

const verbose = process.argv.includes("--verbose");
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
let failures = 0;

function check(what, ok, detail) {
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (!ok) {
    failures++;
    if (detail !== undefined) process.stdout.write(`     ${JSON.stringify(detail)}\n`);
  }
}

function show(title, value) {
  process.stdout.write(`--- ${title}\n${JSON.stringify(value, null, 2)}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function crd(group, plural, kind, extra = {}) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural, singular: plural.replace(/s$/, ""), kind, listKind: `${kind}List`, ...(extra.names ?? {}) },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: extra.schema ?? { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          ...(extra.subresources ? { subresources: extra.subresources } : {}),
        },
      ],
    },
  };
}

async function main() {
  const t0 = Date.now();
  const server = await startServer({ stdio: verbose ? "inherit" : "ignore" });
  const { info } = server;
  process.stdout.write(`server ${info.server} ready in ${Date.now() - t0} ms (pid ${info.pid})\n`);
  const agent = new https.Agent({ keepAlive: true, ca: fs.readFileSync(info.caFile) });
  const url = new URL(info.server);

  const request = (method, path, body, contentType = "application/json") =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers = { Authorization: `Bearer ${info.token}`, Accept: "application/json" };
      if (payload) Object.assign(headers, { "Content-Type": contentType, "Content-Length": payload.length });
      const req = https.request({ hostname: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep text
          }
          resolve({ status: res.statusCode, body: parsed });
        });
      });
      req.on("error", reject);
      req.end(payload);
    });

  const waitCondition = async (name, type, pred, timeoutMs = 20000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await request("GET", `${CRDS}/${name}`);
      const cond = (r.body?.status?.conditions ?? []).find((c) => c.type === type);
      if (pred(cond)) return cond;
      if (Date.now() > deadline) throw new Error(`${name}: ${type} not reached; last ${JSON.stringify(r.body?.status)}`);
      await sleep(100);
    }
  };

  try {
    // Anonymous requests are refused; the health endpoints are open.
    const anon = await new Promise((resolve, reject) => {
      https
        .get({ hostname: url.hostname, port: url.port, path: CRDS, agent }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on("error", reject);
    });
    check("anonymous list of CRDs is 403", anon === 403, anon);

    // 1. A valid CRD, dry run.
    const valid = crd("smoke.example.com", "widgets", "Widget");
    let r = await request("POST", `${CRDS}?dryRun=All`, valid);
    check("dry-run create of a valid CRD is 201", r.status === 201, r);
    r = await request("GET", `${CRDS}/widgets.smoke.example.com`);
    check("dry run stored nothing (GET is 404)", r.status === 404, r.status);

    // 2. An invalid CRD, dry run: 422 with details.causes.
    const invalid = crd("smoke.example.com", "gadgets", "Gadget", {
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: { spec: { type: "object", properties: { size: { type: "bogus" } } } },
        },
      },
      subresources: { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: "" } },
    });
    r = await request("POST", `${CRDS}?dryRun=All`, invalid);
    check("dry-run create of an invalid CRD is 422", r.status === 422, r.status);
    show("422 response", r.body);

    // 3. Two CRDs of one group whose short names collide.
    r = await request("POST", CRDS, crd("names.example.com", "foos", "Foo", { names: { shortNames: ["fx"] } }));
    check("create foos.names.example.com", r.status === 201, r);
    await waitCondition("foos.names.example.com", "Established", (c) => c?.status === "True");
    r = await request("POST", CRDS, crd("names.example.com", "bars", "Bar", { names: { shortNames: ["fx"] } }));
    check("create bars.names.example.com (accepted by the API)", r.status === 201, r);
    const namesAccepted = await waitCondition("bars.names.example.com", "NamesAccepted", (c) => c?.status === "False");
    show("bars.names.example.com NamesAccepted", namesAccepted);
    const established = await waitCondition("bars.names.example.com", "Established", (c) => c !== undefined, 3000).catch(
      () => undefined,
    );
    show("bars.names.example.com Established", established ?? null);

    // 4. Defaulting of a custom resource, dry run.
    const defaults = crd("defaults.example.com", "things", "Thing", {
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              default: {},
              properties: {
                size: { type: "integer", default: 3 },
                mode: { type: "string", default: "auto" },
                tags: { type: "array", items: { type: "string" } },
              },
            },
          },
        },
      },
    });
    r = await request("POST", CRDS, defaults);
    check("create things.defaults.example.com", r.status === 201, r);
    await waitCondition("things.defaults.example.com", "Established", (c) => c?.status === "True");
    r = await request("POST", "/apis/defaults.example.com/v1/namespaces/default/things?dryRun=All", {
      apiVersion: "defaults.example.com/v1",
      kind: "Thing",
      metadata: { name: "t1" },
      spec: { tags: ["a"] },
    });
    check("dry-run create of a custom resource is 201", r.status === 201, r);
    show("defaulted custom resource (dry run)", r.body);
    r = await request("POST", "/apis/defaults.example.com/v1/namespaces/default/things?dryRun=All", {
      apiVersion: "defaults.example.com/v1",
      kind: "Thing",
      metadata: { name: "t2" },
      spec: { size: "big" },
    });
    check("custom resource with a wrong type is 422", r.status === 422, r.status);
    show("422 for a custom resource", r.body);

    // 5. /scale and /status subresources.
    const scaled = crd("scale.example.com", "replicators", "Replicator", {
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: { type: "object", properties: { replicas: { type: "integer" } } },
            status: {
              type: "object",
              properties: { replicas: { type: "integer" }, selector: { type: "string" }, phase: { type: "string" } },
            },
          },
        },
      },
      subresources: {
        status: {},
        scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
      },
    });
    r = await request("POST", CRDS, scaled);
    check("create replicators.scale.example.com", r.status === 201, r);
    await waitCondition("replicators.scale.example.com", "Established", (c) => c?.status === "True");
    const base = "/apis/scale.example.com/v1/namespaces/default/replicators";
    r = await request("POST", base, {
      apiVersion: "scale.example.com/v1",
      kind: "Replicator",
      metadata: { name: "r1" },
      spec: { replicas: 2 },
      status: { replicas: 99 },
    });
    check("create a Replicator (status in the body is dropped)", r.status === 201 && r.body.status === undefined, r.body);
    r = await request("PUT", `${base}/r1/status`, { ...r.body, status: { replicas: 2, selector: "app=r1", phase: "Running" } });
    check("PUT /status is 200", r.status === 200, r);
    show("PUT /status response", r.body);
    r = await request("GET", `${base}/r1/status`);
    check("GET /status is 200", r.status === 200, r);
    r = await request("GET", `${base}/r1/scale`);
    check("GET /scale is 200", r.status === 200, r);
    show("GET /scale response", r.body);
    const scale = r.body;
    r = await request("PUT", `${base}/r1/scale`, { ...scale, spec: { replicas: 5 } });
    check("PUT /scale is 200", r.status === 200, r);
    show("PUT /scale response", r.body);
    r = await request("GET", `${base}/r1`);
    check("PUT /scale changed spec.replicas to 5", r.body?.spec?.replicas === 5, r.body);
    r = await request("PATCH", `${base}/r1/scale`, { spec: { replicas: 1 } }, "application/merge-patch+json");
    check("PATCH /scale (merge patch) is 200", r.status === 200 && r.body?.spec?.replicas === 1, r);

    // 6. Root discovery (normally the aggregator's job).
    r = await request("GET", "/apis");
    check("GET /apis lists the CRD groups", r.status === 200 && r.body.groups?.some((g) => g.name === "scale.example.com"), r);

    // 7. Delete everything.
    r = await request("DELETE", CRDS);
    check("DELETE all CRDs is 200", r.status === 200, r.status);
    const deadline = Date.now() + 60000;
    for (;;) {
      r = await request("GET", CRDS);
      if ((r.body.items ?? []).length === 0) break;
      if (Date.now() > deadline) {
        check("CRDs gone after delete", false, r.body.items.map((i) => i.metadata.name));
        break;
      }
      await sleep(100);
    }
  } finally {
    agent.destroy();
    const t1 = Date.now();
    const exited = await server.stop();
    process.stdout.write(`server stopped in ${Date.now() - t1} ms: ${JSON.stringify(exited)}\n`);
    let alive = true;
    try {
      process.kill(info.pid, 0);
    } catch {
      alive = false;
    }
    check("server process is gone", !alive);
    check("ready.json removed", !fs.existsSync(`${server.dir}/ready.json`));
    const leftovers = fs.readdirSync(server.dir).filter((f) => f.startsWith("etcd-"));
    check("etcd data removed", leftovers.length === 0, leftovers);
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
  process.stdout.write(`${failures === 0 ? "smoke test passed" : `${failures} check(s) failed`}\n`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
