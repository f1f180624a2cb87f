import sys
print("this step fails on purpose", flush=True)
sys.exit(3)
