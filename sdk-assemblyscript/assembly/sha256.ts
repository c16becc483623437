// SHA-256 (FIPS 180-4) for a write's compare-and-swap (if_content): the
// SDK takes no dependency for it.

const K: u32[] = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const HEX = "0123456789abcdef";

// sha256Hex is the lowercase hex SHA-256 of data.
export function sha256Hex(data: Uint8Array): string {
  const h: u32[] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const n = data.length;
  let total = n + 9;
  total += (64 - (total % 64)) % 64;
  const msg = new Uint8Array(total);
  for (let i = 0; i < n; i++) msg[i] = data[i];
  msg[n] = 0x80;
  const bits = <u64>n * 8;
  for (let i = 0; i < 8; i++) msg[total - 1 - i] = <u8>((bits >> (<u64>(8 * i))) & 0xff);
  const w = new Array<u32>(64);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + 4 * i;
      w[i] = (<u32>msg[j] << 24) | (<u32>msg[j + 1] << 16) | (<u32>msg[j + 2] << 8) | <u32>msg[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const s0 = rotr<u32>(w[i - 15], 7) ^ rotr<u32>(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr<u32>(w[i - 2], 17) ^ rotr<u32>(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let i = 0; i < 64; i++) {
      const s1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = hh + s1 + ch + K[i] + w[i];
      const s0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = s0 + maj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    for (let k = 28; k >= 0; k -= 4) out += HEX.charAt(<i32>((h[i] >>> (<u32>k)) & 0xf));
  }
  return out;
}

// base64Bytes decodes padded standard base64 (the caller checked it with
// isBase64).
export function base64Bytes(s: string): Uint8Array {
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let pad = 0;
  if (s.endsWith("==")) pad = 2;
  else if (s.endsWith("=")) pad = 1;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let v: u32 = 0;
    for (let k = 0; k < 4; k++) {
      const c = s.charAt(i + k);
      v = (v << 6) | (c == "=" ? 0 : <u32>A.indexOf(c));
    }
    if (o < out.length) out[o++] = <u8>(v >>> 16);
    if (o < out.length) out[o++] = <u8>((v >>> 8) & 0xff);
    if (o < out.length) out[o++] = <u8>(v & 0xff);
  }
  return out;
}
