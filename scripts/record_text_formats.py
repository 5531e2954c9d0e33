# Records the references of tests/js/text_formats.test.js: CPython's format(value, spec) and numpy's
# str and repr of arrays. Needs a Python with numpy (Debian's python3-numpy):
#   /usr/bin/python3 scripts/record_text_formats.py > tests/js/text_formats_reference.json
import json, sys, platform
import numpy as np
vals=[0.0,-0.0,1.5,-2.25,123.456,1e-5,1e20,0.125,float('nan'),float('inf'),-float('inf'),3.0,1234567.891,0.1,2.5,0.001953125,1/3]
specs=['','.2f','.3e','.4g','10.2f','<10.1f','^11.3f','=+10.2f','+.1f',' .2f','010.3f','.0f','#.0f','.3','.1','g','e','f','%','.1%','E','G','F',',.2f','_.1f','z.1f','#.3g','>8','*^12.2e','.10g','5','.8f','.8e']
ivals=[0,5,-42,1234567,255]
ispecs=['','d','5d','<5','x','#x','X','#b','o','#o',',d','_x','+d',' d','08d','.2f','e','%','c','n','^7','.1','s']
def fmt(v,s):
  try: return format(v,s)
  except Exception as e: return {'error': type(e).__name__ + ': ' + str(e)}
enc=lambda v: v if v==v and abs(v)!=float('inf') else str(v)
numbers=[]
for v in vals:
  for s in specs: numbers.append({'kind':'float','value':enc(v),'negative':str(v).startswith('-'),'spec':s,'text':fmt(v,s)})
for v in ivals:
  for s in ispecs: numbers.append({'kind':'int','value':v,'spec':s,'text':fmt(v,s)})
for v in [True,False]:
  for s in ['','d','5','.1f','>6']: numbers.append({'kind':'bool','value':v,'spec':s,'text':fmt(v,s)})
arrays=[]
def rec(values, shape, dtype):
  a=np.array(values, dtype=dtype).reshape(shape)
  flat=[enc(float(x)) if a.dtype.kind=='f' else (bool(x) if a.dtype.kind=='b' else int(x)) for x in a.ravel()]
  arrays.append({'values':flat,'shape':list(shape),'dtype':dtype,'str':str(a),'repr':repr(a)})
rec([0,1,2],(3,),'float32'); rec([1,2.5,3],(3,),'float32'); rec([0.1,0.2,0.3],(3,),'float32')
rec([1e-5,1,1000],(3,),'float32'); rec([1e8,2],(2,),'float32'); rec([float('nan'),1,-float('inf')],(3,),'float32')
rec(list(range(12)),(3,4),'float32'); rec(list(range(24)),(2,3,4),'int32'); rec([True,False,True],(3,),'bool')
rec([1/3,2/3,-1/7,22/7],(2,2),'float32'); rec([3.0],(),'float32'); rec([2.5e-7],(),'float32'); rec([20.0],(),'float32'); rec([7],(),'int32')
rec([x*0.37 for x in range(2000)],(2000,),'float32'); rec([x*1.5 for x in range(40)],(40,),'float32'); rec([-0.0,0.5],(2,),'float32')
rec([0.001953125, 1],(2,),'float32'); rec([123456.789, 0.001],(2,),'float32'); rec(list(range(30)),(30,),'uint8')
rec([1e-4],(),'float32'); rec([1e-4],(),'float64'); rec([1.5e-5],(),'float32'); rec([1e16],(),'float32'); rec([-0.0],(),'float32')
rec([1.0, 2.0], (2,), 'float64'); rec([0.1, 1/3], (2,), 'float64'); rec([1.5, -2], (2,), 'float16')
json.dump({'source': f'CPython {platform.python_version()} format(value, spec); numpy {np.__version__} str() and repr() of arrays (float32 repr is numpy\'s array(..., dtype=float32))', 'numbers': numbers, 'arrays': arrays}, sys.stdout, indent=0)
