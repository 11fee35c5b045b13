/**
 * The page's state in a URL fragment: JSON, deflated (the browser's CompressionStream,
 * deflate-raw), base64url. The fragment is never sent to a server; nothing else stores the state.
 */
import type { CheckInput } from './engine.js';

const FORMAT = 1;

async function pipe(bytes: Uint8Array, t: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(t);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function toBase64Url(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function encodeState(s: CheckInput): Promise<string> {
  const json = JSON.stringify({ v: FORMAT, crds: s.crds, object: s.object, old: s.old, kube: s.kubeVersion, validate: s.validate ?? 'strict' });
  return toBase64Url(await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw')));
}

export async function decodeState(fragment: string): Promise<CheckInput> {
  const json = new TextDecoder().decode(await pipe(fromBase64Url(fragment), new DecompressionStream('deflate-raw')));
  const o = JSON.parse(json) as Record<string, unknown>;
  if (o['v'] !== FORMAT) throw new Error(`unknown state format ${String(o['v'])}`);
  const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  return { crds: str('crds'), object: str('object'), old: str('old'), kubeVersion: str('kube'), validate: str('validate') || 'strict' };
}
