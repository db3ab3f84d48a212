// The code under test: a tiny UI that lists pets, or shows the API's error message.
async function renderPetList(
  container,
  { apiKey, baseUrl = 'https://api.example.test/v1' },
) {
  const response = await fetch(`${baseUrl}/pets?limit=5`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  })
  const body = await response.json()
  if (!response.ok) {
    const retryAfter = response.headers.get('retry-after')
    container.innerHTML = `<p role="alert">${body.message}${retryAfter ? ` Retry in ${retryAfter} s.` : ''}</p>`
    return { status: response.status, error: body }
  }
  container.innerHTML = `<ul>${body.map((pet) => `<li>${pet.name}</li>`).join('')}</ul>`
  return { status: response.status, pets: body }
}

module.exports = { renderPetList }
