# The PyTorch examples' word_language_model shape: RNNModel (Embedding -> LSTM with dropout ->
# Linear, log_softmax), init_weights with uniform_ / zeros_, init_hidden from weight.new_zeros,
# batchify with narrow / view / t().contiguous(), get_batch, repackage_hidden (detach), the
# hand-written SGD update p.data.add_(p.grad, alpha=-lr) after clip_grad_norm_, and nn.NLLLoss.
import math

import opscope as torch
import opscope.nn as nn
import opscope.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data


def get_batch(source, i, bptt=8):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


torch.manual_seed(1111)
corpus = torch.tensor(([0, 1, 2, 3, 4, 5, 6, 7] * 3 + [0, 2, 4, 6] * 2) * 12)
ntokens = 8
train_data = batchify(corpus, 4)
RESULTS = {}
for rnn_type in ["LSTM", "GRU", "RNN_TANH"]:
    kind = rnn_type if rnn_type in ("LSTM", "GRU") else "RNN"
    model = RNNModel(kind, ntokens, 16, 32, 2, dropout=0.2)
    criterion = nn.NLLLoss()
    lr = 5.0
    losses = []
    for epoch in range(8):
        model.train()
        hidden = model.init_hidden(4)
        total = 0.0
        batches = 0
        for batch, i in enumerate(range(0, train_data.size(0) - 1, 8)):
            data, targets = get_batch(train_data, i)
            model.zero_grad()
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
            loss = criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)
            total += loss.item()
            batches += 1
        losses.append(total / batches)
        print('| {} epoch {:3d} | loss {:5.2f} | ppl {:8.2f}'.format(rnn_type, epoch, losses[-1], math.exp(losses[-1])))
    RESULTS[rnn_type] = losses
print(model)
RESULT = {"losses": RESULTS, "repr": repr(model)}
