// The baseline: a bare Express 5 app answering the same three routes with the same JSON
// as the sandbox, and nothing else (no auth, no rate limits, no validation, no journal).
// Run as a child process by bench/run.js: node bench/bare-express.js <port> <pets-file>
import { readFileSync } from 'node:fs'
import express from 'express'

const port = Number(process.argv[2])
const pets = JSON.parse(readFileSync(process.argv[3], 'utf8'))
const byId = new Map(pets.map((pet) => [pet.id, pet]))
let nextId = pets.length + 1

const app = express()
app.get('/v1/pets', (req, res) => {
  const limit = Number(req.query.limit ?? 20)
  res.json(pets.slice(0, limit))
})
app.post('/v1/pets', express.json(), (req, res) => {
  res.status(201).json({ ...req.body, id: nextId++ })
})
app.get('/v1/pets/:id', (req, res) => {
  const pet = byId.get(Number(req.params.id))
  if (pet) res.json(pet)
  else res.status(404).json({ code: 'not_found', status: 404 })
})
app.listen(port, '127.0.0.1')
