# The makemore lectures' code shape ("zero to hero" parts 2 and 3): a bigram count table filled
# with N[ix1, ix2] += 1 and normalised with keepdims=True, sampling with torch.multinomial and a
# seeded Generator, then the MLP language model: an embedding table C indexed by a tensor of
# contexts, tanh hidden layer, F.cross_entropy, a manual SGD loop over minibatches drawn with
# torch.randint, p.data += -lr * p.grad, and sampling names from the trained model.
import random

import opscope as torch
import opscope.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper",
         "evelyn", "abigail", "emily", "elizabeth", "mila", "ella", "avery", "sofia", "camila",
         "aria", "scarlett", "victoria", "madison", "luna", "grace", "chloe", "penelope", "layla",
         "riley", "zoey", "nora", "lily", "eleanor", "hannah", "lillian", "addison", "aubrey"] * 4
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)

# --- part 2: bigram counts ------------------------------------------------------------------
N = torch.zeros((vocab_size, vocab_size), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
g = torch.Generator().manual_seed(2147483647)
names = []
for i in range(3):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    names.append(''.join(out))
log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        logprob = torch.log(P[stoi[ch1], stoi[ch2]])
        log_likelihood += logprob
        n += 1
bigram_nll = (-log_likelihood / n).item()
print(f'{bigram_nll=}')

# --- part 3: the MLP ------------------------------------------------------------------------
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


random.seed(42)
random.shuffle(words)
n1 = int(0.8 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:])

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * (5 / 3) / (30 ** 0.5)
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, vocab_size), generator=g) * 0.01
b2 = torch.randn(vocab_size, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

lossi = []
for i in range(400):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 300 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    lossi.append(loss.log10().item())


@torch.no_grad()
def split_loss(X, Y):
    emb = C[X]
    embcat = emb.view(emb.shape[0], -1)
    h = torch.tanh(embcat @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Y).item()


train_loss, dev_loss = split_loss(Xtr, Ytr), split_loss(Xdev, Ydev)
print('train', train_loss, 'dev', dev_loss)

samples = []
for _ in range(5):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 20:
            break
    samples.append(''.join(itos[i] for i in out))
print(samples)
# part 4's manual cross-entropy: a range and a tensor as indices
with torch.no_grad():
    logits = torch.tanh(C[Xdev].view(Xdev.shape[0], -1) @ W1 + b1) @ W2 + b2
    n = Xdev.shape[0]
    logprobs = logits.log_softmax(1)
    manual = -logprobs[range(n), Ydev].mean()
RESULT = {"bigram_nll": bigram_nll, "first_loss": 10 ** lossi[0], "train_loss": train_loss,
          "dev_loss": dev_loss, "names": names, "samples": samples,
          "manual_equals_F": abs(manual.item() - dev_loss) < 1e-5}
