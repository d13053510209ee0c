# The "Tensors" tutorial (beginner/basics/tensorqs_tutorial.py) with its random tensors replaced
# by fixed ones, so that its whole printed output can be compared with torch's: construction from
# data and NumPy, *_like, attributes, indexing, cat, the three ways to matmul / mul (operator,
# method, out=), item(), in-place ops, and the NumPy bridge sharing memory.
import numpy as np

import opscope as torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.full_like(x_data, 0.25, dtype=torch.float)
print(f"Full Tensor: \n {x_rand} \n")
shape = (2, 3,)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")
tensor = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 7
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.full_like(y1, 0.5)
torch.matmul(tensor, tensor.T, out=y3)
print(y1, y2, y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.full_like(tensor, 0.5)
torch.mul(tensor, tensor, out=z3)
print(z1, z2, z3)
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
# and the legacy spellings older tutorials use
print(torch.FloatTensor([[1, 2], [3, 4]]), torch.LongTensor(2).shape, x_data.type())
print(torch.autograd.Variable(torch.ones(2), requires_grad=True))
print(torch.as_tensor(np_array).dtype, torch.randperm(4, generator=torch.Generator().manual_seed(0)).sort().values)
print(x_data.multiply(x_data), torch.unsqueeze(x_data, 0).shape, x_data.clone().unsqueeze_(1).shape)
print(torch.sum(tensor, 0, keepdims=True))
RESULT = {}
