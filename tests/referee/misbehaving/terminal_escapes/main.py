import sys

sys.stderr.write("title \x1b]0;pwned-title\x07 clipboard \x1b]52;c;cHduZWQ=\x07\n")
sys.stderr.write("dcs \x1bP1$r0m\x1b\\ csi \x1b[2J\x1b[31m red c1 \x9b31m \x9d0;x\x9c\n")
sys.stderr.write("carriage\rreturn and tab\tstay\n")
sys.stderr.flush()
sys.exit(1)
