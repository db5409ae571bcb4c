//! A small MessagePack reader and writer for arena bots (protocol/SPEC.md §2, §3), with the
//! framing: `receive` reads one frame from stdin, `send` writes one to stdout.
//! Standard library only: copy it into any bot. Public domain.
use std::collections::BTreeMap;
use std::io::{self, Read, Write};

/// A decoded MessagePack value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Array(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

impl Value {
    /// The value of `key` in a map (`None` if absent or not a map).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.get(key),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.data.len() - self.pos < n {
            return Err("truncated MessagePack".to_string());
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }
    fn uint(&mut self, n: usize) -> Result<u64, String> {
        Ok(self.take(n)?.iter().fold(0u64, |x, b| (x << 8) | *b as u64))
    }
    fn string(&mut self, n: usize) -> Result<Value, String> {
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map(Value::Str).map_err(|e| e.to_string())
    }
    fn array(&mut self, n: usize) -> Result<Value, String> {
        let mut out = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            out.push(self.value()?);
        }
        Ok(Value::Array(out))
    }
    fn map(&mut self, n: usize) -> Result<Value, String> {
        let mut out = BTreeMap::new();
        for _ in 0..n {
            let key = match self.value()? {
                Value::Str(s) => s,
                other => format!("{:?}", other),
            };
            out.insert(key, self.value()?);
        }
        Ok(Value::Map(out))
    }
    fn value(&mut self) -> Result<Value, String> {
        let c = self.take(1)?[0];
        Ok(match c {
            0x00..=0x7f => Value::Int(c as i64),
            0xe0..=0xff => Value::Int(c as i8 as i64),
            0xa0..=0xbf => self.string((c & 0x1f) as usize)?,
            0x90..=0x9f => self.array((c & 0x0f) as usize)?,
            0x80..=0x8f => self.map((c & 0x0f) as usize)?,
            0xc0 => Value::Nil,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xcc => Value::Int(self.uint(1)? as i64),
            0xcd => Value::Int(self.uint(2)? as i64),
            0xce => Value::Int(self.uint(4)? as i64),
            0xcf => Value::Int(self.uint(8)? as i64),
            0xd0 => Value::Int(self.uint(1)? as u8 as i8 as i64),
            0xd1 => Value::Int(self.uint(2)? as u16 as i16 as i64),
            0xd2 => Value::Int(self.uint(4)? as u32 as i32 as i64),
            0xd3 => Value::Int(self.uint(8)? as i64),
            0xca => Value::Float(f32::from_bits(self.uint(4)? as u32) as f64),
            0xcb => Value::Float(f64::from_bits(self.uint(8)?)),
            0xd9 => { let n = self.uint(1)? as usize; self.string(n)? }
            0xda => { let n = self.uint(2)? as usize; self.string(n)? }
            0xdb => { let n = self.uint(4)? as usize; self.string(n)? }
            0xc4 => { let n = self.uint(1)? as usize; Value::Bin(self.take(n)?.to_vec()) }
            0xc5 => { let n = self.uint(2)? as usize; Value::Bin(self.take(n)?.to_vec()) }
            0xc6 => { let n = self.uint(4)? as usize; Value::Bin(self.take(n)?.to_vec()) }
            0xdc => { let n = self.uint(2)? as usize; self.array(n)? }
            0xdd => { let n = self.uint(4)? as usize; self.array(n)? }
            0xde => { let n = self.uint(2)? as usize; self.map(n)? }
            0xdf => { let n = self.uint(4)? as usize; self.map(n)? }
            _ => return Err(format!("unsupported MessagePack byte 0x{:02x}", c)),
        })
    }
}

/// Decode one MessagePack value.
pub fn decode(data: &[u8]) -> Result<Value, String> {
    let mut reader = Reader { data, pos: 0 };
    let value = reader.value()?;
    if reader.pos != data.len() {
        return Err("extra bytes after the MessagePack value".to_string());
    }
    Ok(value)
}

fn put_len(out: &mut Vec<u8>, n: usize, fix: u8, fix_max: usize, tag16: u8, tag32: u8) {
    if n <= fix_max {
        out.push(fix | n as u8);
    } else if n < 65536 {
        out.push(tag16);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(tag32);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

/// Encode a value as MessagePack.
pub fn encode(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Nil => out.push(0xc0),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::Int(i) if (0..128).contains(i) => out.push(*i as u8),
        Value::Int(i) if (-32..0).contains(i) => out.push(*i as i8 as u8),
        Value::Int(i) => {
            out.push(0xd3);
            out.extend_from_slice(&i.to_be_bytes());
        }
        Value::Float(f) => {
            out.push(0xcb);
            out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
        Value::Str(s) => {
            put_len(out, s.len(), 0xa0, 31, 0xda, 0xdb);
            out.extend_from_slice(s.as_bytes());
        }
        Value::Bin(b) => {
            out.push(0xc6);
            out.extend_from_slice(&(b.len() as u32).to_be_bytes());
            out.extend_from_slice(b);
        }
        Value::Array(a) => {
            put_len(out, a.len(), 0x90, 15, 0xdc, 0xdd);
            a.iter().for_each(|v| encode(v, out));
        }
        Value::Map(m) => {
            put_len(out, m.len(), 0x80, 15, 0xde, 0xdf);
            for (k, v) in m {
                encode(&Value::Str(k.clone()), out);
                encode(v, out);
            }
        }
    }
}

/// The next message from the referee, or `None` at the end of input.
pub fn receive(input: &mut impl Read) -> Option<Value> {
    let mut header = [0u8; 4];
    input.read_exact(&mut header).ok()?;
    let mut body = vec![0u8; u32::from_be_bytes(header) as usize];
    input.read_exact(&mut body).ok()?;
    match decode(&body) {
        Ok(v) => Some(v),
        Err(e) => {
            eprintln!("bot: cannot decode the referee's message: {}", e);
            std::process::exit(1);
        }
    }
}

/// Send one message (a map built with `message`) to the referee.
pub fn send(output: &mut impl Write, message: &Value) -> io::Result<()> {
    let mut body = Vec::new();
    encode(message, &mut body);
    output.write_all(&(body.len() as u32).to_be_bytes())?;
    output.write_all(&body)?;
    output.flush()
}

/// A map from (key, value) pairs: `message(&[("type", Value::Str("ready".into()))])`.
pub fn message(pairs: &[(&str, Value)]) -> Value {
    Value::Map(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}
