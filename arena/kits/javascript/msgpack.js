// A small MessagePack reader and writer for arena bots (protocol/SPEC.md §2, §3), with the
// framing: receive() reads one frame from stdin, send() writes one to stdout.
// No packages needed: copy it into any Node.js bot. Public domain.
"use strict";
const fs = require("fs");

function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const text = new TextDecoder("utf-8");
  function take(n) {
    if (pos + n > bytes.length) throw new Error("truncated MessagePack");
    const at = pos;
    pos += n;
    return at;
  }
  function str(n) { const at = take(n); return text.decode(bytes.subarray(at, at + n)); }
  function bin(n) { const at = take(n); return bytes.slice(at, at + n); }
  function array(n) { const out = []; for (let i = 0; i < n; i++) out.push(value()); return out; }
  function map(n) {
    const out = {};
    for (let i = 0; i < n; i++) { const k = value(); out[k] = value(); }
    return out;
  }
  function value() {
    const c = bytes[take(1)];
    if (c <= 0x7f) return c;
    if (c >= 0xe0) return c - 0x100;
    if ((c & 0xe0) === 0xa0) return str(c & 0x1f);
    if ((c & 0xf0) === 0x90) return array(c & 0x0f);
    if ((c & 0xf0) === 0x80) return map(c & 0x0f);
    switch (c) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xcc: return view.getUint8(take(1));
      case 0xcd: return view.getUint16(take(2));
      case 0xce: return view.getUint32(take(4));
      case 0xcf: return Number(view.getBigUint64(take(8)));
      case 0xd0: return view.getInt8(take(1));
      case 0xd1: return view.getInt16(take(2));
      case 0xd2: return view.getInt32(take(4));
      case 0xd3: return Number(view.getBigInt64(take(8)));
      case 0xca: return view.getFloat32(take(4));
      case 0xcb: return view.getFloat64(take(8));
      case 0xd9: return str(view.getUint8(take(1)));
      case 0xda: return str(view.getUint16(take(2)));
      case 0xdb: return str(view.getUint32(take(4)));
      case 0xc4: return bin(view.getUint8(take(1)));
      case 0xc5: return bin(view.getUint16(take(2)));
      case 0xc6: return bin(view.getUint32(take(4)));
      case 0xdc: return array(view.getUint16(take(2)));
      case 0xdd: return array(view.getUint32(take(4)));
      case 0xde: return map(view.getUint16(take(2)));
      case 0xdf: return map(view.getUint32(take(4)));
      default: throw new Error("unsupported MessagePack byte 0x" + c.toString(16));
    }
  }
  const result = value();
  if (pos !== bytes.length) throw new Error("extra bytes after the MessagePack value");
  return result;
}

function encode(value) {
  const out = [];
  const text = new TextEncoder();
  function bytesBE(x, n) { for (let i = n - 1; i >= 0; i--) out.push(Math.floor(x / 2 ** (8 * i)) & 0xff); }
  function put(v) {
    if (v === null || v === undefined) out.push(0xc0);
    else if (v === true) out.push(0xc3);
    else if (v === false) out.push(0xc2);
    else if (typeof v === "number" && Number.isInteger(v)) {
      if (v >= 0 && v < 128) out.push(v);
      else if (v < 0 && v >= -32) out.push(v + 0x100);
      else if (v >= 0 && v < 2 ** 32) { out.push(0xce); bytesBE(v, 4); }
      else if (v < 0 && v >= -(2 ** 31)) { out.push(0xd2); bytesBE(v >>> 0, 4); }
      else { const b = new DataView(new ArrayBuffer(8)); b.setBigInt64(0, BigInt(v)); out.push(0xd3, ...new Uint8Array(b.buffer)); }
    } else if (typeof v === "number") {
      const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, v); out.push(0xcb, ...new Uint8Array(b.buffer));
    } else if (typeof v === "string") {
      const b = text.encode(v);
      if (b.length < 32) out.push(0xa0 | b.length);
      else if (b.length < 256) out.push(0xd9, b.length);
      else if (b.length < 65536) { out.push(0xda); bytesBE(b.length, 2); }
      else { out.push(0xdb); bytesBE(b.length, 4); }
      for (const x of b) out.push(x);
    } else if (Array.isArray(v)) {
      if (v.length < 16) out.push(0x90 | v.length); else { out.push(0xdd); bytesBE(v.length, 4); }
      v.forEach(put);
    } else if (typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length < 16) out.push(0x80 | keys.length); else { out.push(0xdf); bytesBE(keys.length, 4); }
      for (const k of keys) { put(k); put(v[k]); }
    } else throw new Error("cannot encode " + typeof v);
  }
  put(value);
  return Uint8Array.from(out);
}

function readExact(n) {
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    let k;
    try {
      k = fs.readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      if (e.code === "EOF") return null;
      throw e;
    }
    if (k === 0) return null;
    got += k;
  }
  return buf;
}

// The next message from the referee (an object), or null at the end of input.
function receive() {
  const header = readExact(4);
  if (header === null) return null;
  const body = readExact(header.readUInt32BE(0));
  return body === null ? null : decode(body);
}

// Send one message (an object) to the referee.
function send(message) {
  const body = encode(message);
  const frame = Buffer.alloc(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, 4);
  let sent = 0;
  while (sent < frame.length) sent += fs.writeSync(1, frame, sent);
}

module.exports = { decode, encode, receive, send };
