# The simulator's wire layer with a raw-socket peer (no adb): CNXN reply,
# OPEN/OKAY/WRTE/CLSE, flow control (one WRTE in flight until OKAY),
# duplicate CLSE, refused services, checksums with --old-protocol, and
# garbage that must drop only the offending connection.
. "$TOP/tests/lib.sh"
[ -x "$ADBSIM" ] || skip "adbsim not built"

# run_sim DIR OPTIONS...: start a simulator (in this shell, so that
# track_pid sees it) and set PORT.
run_sim() {
    d=$1; shift
    mkdir -p "$d"
    "$ADBSIM" --port 0 --port-file "$d/port" --fs-dir "$d/fs" "$@" \
        >"$d/out" 2>"$d/err" &
    track_pid $!
    i=0
    while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    PORT=$(cat "$d/port")
}

run_sim "$T/s1" --size-mb 3
P1=$PORT
run_sim "$T/s2" --old-protocol
P2=$PORT

python3 - "$P1" "$P2" <<'PYEOF' || fail "wire checks"
import socket, struct, sys

def cmd(name):
    return struct.unpack('<I', name)[0]

def pkt(name, a0, a1, data=b'', ck=True, magic=None):
    c = cmd(name)
    m = c ^ 0xffffffff if magic is None else magic
    return struct.pack('<6I', c, a0, a1, len(data),
                       sum(data) & 0xffffffff if ck else 0, m) + data

def recv_exact(s, n):
    b = b''
    while len(b) < n:
        x = s.recv(n - len(b))
        if not x:
            raise EOFError('closed after %d of %d bytes' % (len(b), n))
        b += x
    return b

def read_pkt(s):
    h = recv_exact(s, 24)
    c, a0, a1, n, ck, m = struct.unpack('<6I', h)
    assert m == c ^ 0xffffffff, 'bad magic from device'
    data = recv_exact(s, n)
    return struct.pack('<I', c), a0, a1, data, ck

def connect(port, version=0x01000001, maxdata=0x100000):
    s = socket.create_connection(('127.0.0.1', port))
    s.settimeout(10)
    s.sendall(pkt(b'CNXN', version, maxdata, b'host::features=shell_v2'))
    name, a0, a1, data, ck = read_pkt(s)
    assert name == b'CNXN', name
    return s, a0, a1, data, ck

port, old_port = int(sys.argv[1]), int(sys.argv[2])

# CNXN reply: version, maxdata, banner, checksummed.
s, ver, maxdata, banner, ck = connect(port)
assert ver == 0x01000001 and maxdata == 0x100000, (hex(ver), maxdata)
assert banner == (b'device::ro.product.name=sim;ro.product.model=SystraceSim;'
                  b'ro.product.device=sim;features=shell_v2,cmd,stat_v2,ls_v2'), banner
assert ck == sum(banner), 'CNXN not checksummed'

# Refused service: CLSE(0, our id).
s.sendall(pkt(b'OPEN', 7, 0, b'nosuchservice:\0'))
name, a0, a1, _, _ = read_pkt(s)
assert (name, a0, a1) == (b'CLSE', 0, 7), (name, a0, a1)

# Flow control: a 3 MB dump arrives as WRTEs of at most 1 MiB, the next
# one only after our OKAY.
s.sendall(pkt(b'OPEN', 9, 0, b'exec:atrace -t 0 sched\0'))
name, local, remote, _, _ = read_pkt(s)
assert (name, remote) == (b'OKAY', 9)
got, wrtes = b'', 0
while True:
    name, a0, a1, data, _ = read_pkt(s)
    if name == b'WRTE':
        assert len(data) <= 0x100000
        got += data
        wrtes += 1
        s.sendall(pkt(b'OKAY', 9, local))
    elif name == b'CLSE':
        break
assert got.startswith(b'capturing trace... done\nTRACE:\n# tracer: nop'), got[:60]
assert 2900000 < len(got) < 3100000 and wrtes >= 3, (len(got), wrtes)
s.sendall(pkt(b'CLSE', 9, local))
s.sendall(pkt(b'CLSE', 9, local))      # duplicate: tolerated

s.sendall(pkt(b'OPEN', 11, 0, b'exec:atrace -t 0 sched\0'))
name, local, remote, _, _ = read_pkt(s)
s.sendall(pkt(b'OPEN', 12, 0, b'shell,v2,raw:echo x\0'))
seen = {}
while len(seen) < 2 or any(v != 'closed' for v in seen.values()):
    name, a0, a1, data, _ = read_pkt(s)
    if name == b'OKAY' and a1 == 12:
        seen[12] = 'open'
        continue
    if name == b'WRTE':
        seen.setdefault(a1, 'open')
        s.sendall(pkt(b'OKAY', a1, a0))
        if a1 == 12:
            assert data == b'\x01\x02\x00\x00\x00x\n\x03\x01\x00\x00\x00\x00', data
    if name == b'CLSE':
        seen[a1] = 'closed'
s.close()

# Big output without OKAYs: exactly one WRTE in flight.
s, _, _, _, _ = connect(port)
s.sendall(pkt(b'OPEN', 5, 0, b'exec:atrace -t 0 sched\0'))
name, local, _, _, _ = read_pkt(s)
name, _, _, data, _ = read_pkt(s)
assert name == b'WRTE'
s.settimeout(1)
try:
    extra = s.recv(24)
    assert not extra, 'second WRTE before OKAY'
except socket.timeout:
    pass
s.close()

# Garbage: bad magic, oversized length -> that connection is dropped ...
for bad in (pkt(b'WRTE', 1, 1, b'x', magic=0), 
            struct.pack('<6I', cmd(b'WRTE'), 1, 1, 0x7fffffff, 0,
                        cmd(b'WRTE') ^ 0xffffffff)):
    g, _, _, _, _ = connect(port)
    g.sendall(bad)
    g.settimeout(5)
    assert g.recv(1) == b'', 'connection kept after garbage'
    g.close()
# ... OPEN before CNXN is ignored, unknown commands too.
g = socket.create_connection(('127.0.0.1', port))
g.settimeout(1)
g.sendall(pkt(b'OPEN', 3, 0, b'shell:echo no\0') + pkt(b'ABCD', 0, 0))
try:
    assert g.recv(1) == b''
    raise AssertionError('answered before CNXN')
except socket.timeout:
    pass
g.close()

# The device still works after all that.
s, _, _, _, _ = connect(port)
s.sendall(pkt(b'OPEN', 1, 0, b'shell:echo alive\0'))
out = b''
while True:
    name, a0, a1, data, _ = read_pkt(s)
    if name == b'WRTE':
        out += data
        s.sendall(pkt(b'OKAY', 1, a0))
    if name == b'CLSE':
        break
assert out == b'alive\n', out

# --old-protocol: 0x01000000 / 4096, checksums both ways; a bad checksum
# drops the connection.
s, ver, maxdata, _, _ = connect(old_port, 0x01000001, 0x100000)
assert (ver, maxdata) == (0x01000000, 4096), (hex(ver), maxdata)
s.sendall(pkt(b'OPEN', 1, 0, b'exec:getprop ro.product.model\0'))
out = b''
while True:
    name, a0, a1, data, ck = read_pkt(s)
    assert ck == sum(data), 'device did not checksum'
    assert len(data) <= 4096
    if name == b'WRTE':
        out += data
        s.sendall(pkt(b'OKAY', 1, a0))
    if name == b'CLSE':
        break
assert out == b'SystraceSim\n', out
s.sendall(pkt(b'OPEN', 2, 0, b'exec:echo x\0', ck=False))
s.settimeout(5)
try:
    while read_pkt(s):
        pass
except EOFError:
    pass
else:
    raise AssertionError('bad checksum accepted')
print('wire ok')
PYEOF
# SIGTERM: exit status 0, the temporary device file system is removed,
# even with a connection and a hanging command open.
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" "$ADBSIM" --port 0 --port-file "$T/p3" --hang-on hang \
    >/dev/null 2>"$T/err3" &
pid=$!
i=0
while [ ! -s "$T/p3" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$(ls "$T/tmp")" ] || fail "no temporary file system"
python3 - "$(cat "$T/p3")" <<'PYEOF' &
import socket, struct, sys, time
def pkt(name, a0, a1, data=b''):
    c = struct.unpack('<I', name)[0]
    return struct.pack('<6I', c, a0, a1, len(data), sum(data), c ^ 0xffffffff) + data
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
s.sendall(pkt(b'CNXN', 0x01000001, 0x100000, b'host::'))
s.sendall(pkt(b'OPEN', 1, 0, b'shell:hang\0'))
time.sleep(5)
PYEOF
peer=$!
track_pid $peer
sleep 0.5
kill "$pid"
wait "$pid"
assert_eq "exit status after SIGTERM" 0 $?
[ -z "$(ls "$T/tmp")" ] || fail "temporary file system left behind"
exit 0
